import ArgumentParser
import FoundationEssentials
import WidgetHostCore

/// `widgethost click <id> [--button N] [--target NAME | --at X,Y]`: a click on a widget, as a bar
/// or the desktop surface sends it.
struct ClickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "click",
        abstract: "Click a widget: run a Button/Toggle intent, or open the entry's URL.",
        discussion: """
        With --target, runs the control whose action id or title is NAME (`widgethost status` lists \
        them). Without, button 1 runs the entry's first control; other buttons, or an entry with no \
        control, open its widgetURL/Link with defaults.opener (xdg-open).
        """
    )

    @Argument(help: "The widget instance id (the name of its output files).", completion: .custom(WidgetCompletion.ids))
    var id: String

    @Option(name: .long, help: "Mouse button: 1 left, 2 middle, 3 right, 4/5 scroll.")
    var button: Int = 1

    @Option(name: .long, help: "A control's action id or title.")
    var target: String?

    @Option(name: .long, help: "A point of the widget's picture, x,y in its pixels: the control there runs, elsewhere its URL opens (out/<id>.regions.json).")
    var at: String?

    @Option(name: .long, help: "The output directory with the picture's regions (default: paths.out of the config).")
    var out: String?

    @OptionGroup var control: ControlOptions

    func validate() throws {
        if at != nil && target != nil { throw ValidationError("--at and --target exclude each other") }
        if let at, Self.point(at) == nil { throw ValidationError("--at takes x,y in pixels, got \"\(at)\"") }
    }

    func run() throws {
        var button = self.button, target = self.target
        if let at, let (x, y) = Self.point(at) {
            let dir: String
            if let out { dir = out } else {
                switch ConfigSource(explicitPath: control.config).load() {
                case .success(let c): dir = c.paths.out
                case .failure(let e): throw ValidationError("cannot read the configuration: \(e)")
                }
            }
            let file = dir + "/" + PictureRegions.fileName(for: id)
            guard let data = FileIO.read(file), let regions = PictureRegions.decode(data) else {
                ControlClient.printError("widgethost: no picture regions for \(id) in \(file) (does the widget have a png or svg output?)")
                throw ExitCode(1)
            }
            // A control's region runs it; anywhere else the widget's URL opens (button 3).
            if button == 1, let t = regions.hit(x: x, y: y)?.target { target = t } else if button == 1 { button = 3 }
        }
        let r = try ControlClient.run(ControlRequest(op: .click, id: id, button: button, target: target), options: control)
        print(r.message ?? "ok")
    }

    /// `x,y` as two finite numbers.
    static func point(_ s: String) -> (Double, Double)? {
        let parts = s.split(separator: ",").map { $0.filter { $0 != " " } }
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }
}
