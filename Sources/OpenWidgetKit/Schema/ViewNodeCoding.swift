import FoundationEssentials

// Coding of the two wide types of the view schema. ViewNode keeps some fields in boxes
// (`Indirect`), so its coding is written here against the same keys as before; decoding goes
// by the keys that are present.
//
// A synthesized `init(from:)` asks the container for every optional field (`decodeIfPresent`
// on each of ViewNode's 16 and Modifiers' 22 keys), whether the JSON has it or not; a text node
// has two. Each such call goes through `KeyedDecodingContainer`'s type-erased box. Walking
// `allKeys` instead asks only for what is there: the same values (unknown keys are skipped, as
// before; a `null` decodes as nil, as before), for about a third of the decoding work of a host
// reading 60-entry timelines (issue 6). Modifiers' encoding stays synthesized.

extension ViewNode {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, role, children, text, date, symbol, alignment, spacing, value, bounds, style, shape, url, action, isOn, modifiers
        case horizontalSpacing, axes, gridItems, asset
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try c.decode(Kind.self, forKey: .kind))
        for key in c.allKeys {
            switch key {
            case .kind: break
            case .role: role = try c.decodeIfPresent(String.self, forKey: key)
            case .children: children = try c.decodeIfPresent([ViewNode].self, forKey: key)
            case .text: text = try c.decodeIfPresent(String.self, forKey: key)
            case .date: date = try c.decodeIfPresent(DateText.self, forKey: key)
            case .symbol: symbol = try c.decodeIfPresent(String.self, forKey: key)
            case .alignment: alignment = try c.decodeIfPresent(String.self, forKey: key)
            case .spacing: spacing = try c.decodeIfPresent(Double.self, forKey: key)
            case .value: value = try c.decodeIfPresent(Double.self, forKey: key)
            case .bounds: bounds = try c.decodeIfPresent([Double].self, forKey: key)
            case .style: style = try c.decodeIfPresent(String.self, forKey: key)
            case .shape: shape = try c.decodeIfPresent(ShapeInfo.self, forKey: key)
            case .url: url = try c.decodeIfPresent(String.self, forKey: key)
            case .action: action = try c.decodeIfPresent(IntentAction.self, forKey: key)
            case .isOn: isOn = try c.decodeIfPresent(Bool.self, forKey: key)
            case .modifiers: modifiers = try c.decodeIfPresent(Modifiers.self, forKey: key)
            case .horizontalSpacing: horizontalSpacing = try c.decodeIfPresent(Double.self, forKey: key)
            case .axes: axes = try c.decodeIfPresent(String.self, forKey: key)
            case .gridItems: gridItems = try c.decodeIfPresent([GridItemSpec].self, forKey: key)
            case .asset: asset = try c.decodeIfPresent(ImageAsset.self, forKey: key)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(role, forKey: .role)
        try c.encodeIfPresent(children, forKey: .children)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(date, forKey: .date)
        try c.encodeIfPresent(symbol, forKey: .symbol)
        try c.encodeIfPresent(alignment, forKey: .alignment)
        try c.encodeIfPresent(spacing, forKey: .spacing)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(bounds, forKey: .bounds)
        try c.encodeIfPresent(style, forKey: .style)
        try c.encodeIfPresent(shape, forKey: .shape)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(action, forKey: .action)
        try c.encodeIfPresent(isOn, forKey: .isOn)
        try c.encodeIfPresent(modifiers, forKey: .modifiers)
        try c.encodeIfPresent(horizontalSpacing, forKey: .horizontalSpacing)
        try c.encodeIfPresent(axes, forKey: .axes)
        try c.encodeIfPresent(gridItems, forKey: .gridItems)
        try c.encodeIfPresent(asset, forKey: .asset)
    }
}

extension Modifiers {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case font, weight, italic, monospacedDigit, foreground, tint, padding, frame, background, lineLimit, minimumScaleFactor
        case opacity, rotation, widgetURL, containerBackground, redacted, privacySensitive, accessibilityLabel, hidden
        case layoutPriority, textAlignment, other
        case fontDesign, monospaced, kerning, tracking, textCase, truncationMode, aspectRatio, contentMode, id
        case accessibilityHidden, contentMargins
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for key in c.allKeys {
            switch key {
            case .font: font = try c.decodeIfPresent(FontSpec.self, forKey: key)
            case .weight: weight = try c.decodeIfPresent(String.self, forKey: key)
            case .italic: italic = try c.decodeIfPresent(Bool.self, forKey: key)
            case .monospacedDigit: monospacedDigit = try c.decodeIfPresent(Bool.self, forKey: key)
            case .foreground: foreground = try c.decodeIfPresent(StyleSpec.self, forKey: key)
            case .tint: tint = try c.decodeIfPresent(StyleSpec.self, forKey: key)
            case .padding: padding = try c.decodeIfPresent(EdgeInsetsSpec.self, forKey: key)
            case .frame: frame = try c.decodeIfPresent(FrameSpec.self, forKey: key)
            case .background: background = try c.decodeIfPresent(StyleSpec.self, forKey: key)
            case .lineLimit: lineLimit = try c.decodeIfPresent(Int.self, forKey: key)
            case .minimumScaleFactor: minimumScaleFactor = try c.decodeIfPresent(Double.self, forKey: key)
            case .opacity: opacity = try c.decodeIfPresent(Double.self, forKey: key)
            case .rotation: rotation = try c.decodeIfPresent(Double.self, forKey: key)
            case .widgetURL: widgetURL = try c.decodeIfPresent(String.self, forKey: key)
            case .containerBackground: containerBackground = try c.decodeIfPresent(StyleSpec.self, forKey: key)
            case .redacted: redacted = try c.decodeIfPresent(Bool.self, forKey: key)
            case .privacySensitive: privacySensitive = try c.decodeIfPresent(Bool.self, forKey: key)
            case .accessibilityLabel: accessibilityLabel = try c.decodeIfPresent(String.self, forKey: key)
            case .hidden: hidden = try c.decodeIfPresent(Bool.self, forKey: key)
            case .layoutPriority: layoutPriority = try c.decodeIfPresent(Double.self, forKey: key)
            case .textAlignment: textAlignment = try c.decodeIfPresent(String.self, forKey: key)
            case .other: other = try c.decodeIfPresent([String: JSONValue].self, forKey: key)
            case .fontDesign: fontDesign = try c.decodeIfPresent(String.self, forKey: key)
            case .monospaced: monospaced = try c.decodeIfPresent(Bool.self, forKey: key)
            case .kerning: kerning = try c.decodeIfPresent(Double.self, forKey: key)
            case .tracking: tracking = try c.decodeIfPresent(Double.self, forKey: key)
            case .textCase: textCase = try c.decodeIfPresent(String.self, forKey: key)
            case .truncationMode: truncationMode = try c.decodeIfPresent(String.self, forKey: key)
            case .aspectRatio: aspectRatio = try c.decodeIfPresent(Double.self, forKey: key)
            case .contentMode: contentMode = try c.decodeIfPresent(String.self, forKey: key)
            case .id: id = try c.decodeIfPresent(String.self, forKey: key)
            case .accessibilityHidden: accessibilityHidden = try c.decodeIfPresent(Bool.self, forKey: key)
            case .contentMargins: contentMargins = try c.decodeIfPresent(EdgeInsetsSpec.self, forKey: key)
            }
        }
    }
}
