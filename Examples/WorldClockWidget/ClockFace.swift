import FoundationEssentials
import Glibc
import OpenWidgetKit

/// An analog face drawn as Apple's Clock widget draws it: a white disc with black marks and
/// hands by day, a black one with white marks at night (18:00 to 06:00 in its city) and in
/// dark mode; minute ticks, the numerals 1–12, hour and minute hands from a centre dot. Sized by its
/// `diameter`; shapes and `rotationEffect` only, as a SwiftUI author would write it. Read as one
/// element, "Paris, 11:09" (by a screen reader, and by the text outputs instead of its numerals).
struct ClockFace: View {
    @Environment(\.colorScheme) var colorScheme
    let clock: CityTime
    let diameter: Double
    /// Numerals are left out on faces too small to read them (accessory families).
    var numerals = true
    /// The city's abbreviation inside the face, under the centre ("CUP"), as on Apple's small faces.
    var label: String? = nil
    /// The accessory look: a translucent disc, white marks (the Lock Screen tints them).
    var accessory = false

    /// A dark face: dark mode, or night in the city (as Apple's World Clock shows it).
    var dark: Bool { colorScheme == .dark || clock.isNight }
    var face: Color { accessory ? .clear : dark ? Color(white: colorScheme == .dark ? 0.17 : 0.1) : .white }
    var ink: Color { accessory || dark ? .white : .black }
    var tick: Color { ink.opacity(0.35) }

    var body: some View {
        let r = diameter / 2
        ZStack {
            if accessory {
                AccessoryWidgetBackground().clipShape(Circle())
            } else {
                Circle().fill(face)
                // A white face on the white widget: a faint rim, so its edge shows.
                if !dark { Circle().stroke(Color.black.opacity(0.12), lineWidth: max(1, diameter * 0.012)) }
            }
            // Minute ticks only on a face large enough to show them apart (the small widget's):
            // 48 more nodes a face, and a medium widget's three hours of entries must stay well
            // within the host's 8 MiB a timeline (limits.maxResponseBytes).
            ForEach(0..<60, id: \.self) { i in
                if i % 5 == 0 || (numerals && diameter >= 100) {
                    Rectangle().fill(i % 5 == 0 ? ink.opacity(0.6) : tick)
                        .frame(width: max(1, diameter * (i % 5 == 0 ? 0.014 : 0.008)), height: diameter * (i % 5 == 0 ? 0.05 : 0.035))
                        .frame(width: diameter, height: diameter, alignment: .top)
                        .rotationEffect(.degrees(Double(i) * 6))
                }
            }
            if numerals {
                ForEach(1...12, id: \.self) { n in
                    let a = Double(n) * .pi / 6, rn = r * 0.70
                    Text("\(n)").font(.system(size: diameter * 0.14, weight: .medium)).foregroundStyle(ink)
                        .offset(x: rn * sin(a), y: -rn * cos(a))
                }
            }
            if let label {
                Text(label).font(.system(size: max(9, diameter * 0.1), weight: .semibold)).foregroundStyle(ink.opacity(0.6))
                    .offset(y: r * 0.42)
            }
            Hand(length: r * 0.5, width: diameter * 0.04, angle: clock.hourAngle, color: ink)
            Hand(length: r * 0.8, width: diameter * 0.026, angle: clock.minuteAngle, color: ink)
            Circle().fill(ink).frame(width: diameter * 0.065, height: diameter * 0.065)
        }
        .frame(width: diameter, height: diameter)
        .accessibilityElement(children: .ignore)
        .accessibilityLabel("\(clock.city.name), \(clock.time)")
    }
}

/// A hand: a capsule from a little behind the centre out to `length`, turned by `angle` degrees
/// clockwise about the centre (its frame is twice its length tall, centred on the face).
struct Hand: View {
    let length: Double
    let width: Double
    let angle: Double
    let color: Color

    var body: some View {
        let tail = width * 1.2
        VStack(spacing: 0) {
            Capsule().fill(color).frame(width: width, height: length + tail)
            Color.clear.frame(width: width, height: length - tail)
        }
        .rotationEffect(.degrees(angle))
    }
}
