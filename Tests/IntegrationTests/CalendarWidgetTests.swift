import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Read-only folders outside the containers (issue 29, the calendar bundle): a path the bundle
/// declares (`filesystems` in its manifest) or the person grants (`bundles.<id>.filesystems`)
/// is readable and not writable by its sandboxed worker; any other path of the user's is not
/// there (ENOENT when isolated, refused under Landlock alone). Then the calendar bundle itself on
/// a real host: `.ics` files written by the test into khal's folder show as the next event, and a
/// new file renamed in changes the output with no timeline entry due (the host watches the folder).
@Suite(.serialized) struct CalendarWidgetTests {
    let id = "fault-systemSmall"
    let outside = WorkerSandbox.isolationAvailable ? "ENOENT" : "no"

    /// The fault fixture's sandbox probe ("rh=… wh=…": read `home/secret.txt`, create
    /// `home/planted.txt`) with the manifest declaring `declared` and config.json granting
    /// `granted` (`$DIR`: the daemon's folder).
    func probe(declared: String?, granted: String? = nil) throws -> (text: String, planted: Bool) {
        let d = try RunningDaemon { dir in
            mkdir(dir + "/home", 0o700); mkdir(dir + "/other", 0o700)
            FileManagerFree.write(dir + "/home/secret.txt", "secret")
            // The harness calls this again after writing its config: this one replaces it.
            let grant = granted.map { #", "bundles": {"org.example.fault": {"filesystems": [""# + $0.replacing("$DIR", with: dir) + #""]}}"# } ?? ""
            FileManagerFree.write(dir + "/config.json", #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}"# + grant + "}")
        }
        var defines = ["SECRET=\"\(d.dir.path)/home/secret.txt\"", "PLANT=\"\(d.dir.path)/home/planted.txt\"", "PORT=1"]
        if let declared { defines.append("FILESYSTEM=\"\(declared.replacing("$DIR", with: d.dir.path))\"") }
        d.install(try buildFault(in: d.dir.path, 30, defines: defines), as: "fault.so")
        #expect(eventually { d.text(id)?.hasPrefix("rh=") == true }, "\(d.stderr.suffix(2000))")
        return (d.text(id) ?? "", FileManagerFree.exists(d.dir.path + "/home/planted.txt"))
    }

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func aDeclaredFolderIsReadableAndNotWritable() throws {
        let r = try probe(declared: "$DIR/home:ro")
        #expect(r.text.hasPrefix("rh=ok wh="), "\(r.text)")
        #expect(!r.text.hasPrefix("rh=ok wh=ok"), "\(r.text)")
        #expect(!r.planted)
    }

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func aFolderNeitherDeclaredNorGrantedIsNotThere() throws {
        let r = try probe(declared: "$DIR/other:ro", granted: "$DIR/other:ro")
        #expect(r.text.hasPrefix("rh=\(outside) wh=\(outside)"), "\(r.text)")
        #expect(!r.planted)
    }

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func aFolderThePersonGrantsIsReadableAndNotWritable() throws {
        let r = try probe(declared: nil, granted: "$DIR/home:ro")
        #expect(r.text.hasPrefix("rh=ok wh="), "\(r.text)")
        #expect(!r.text.hasPrefix("rh=ok wh=ok"), "\(r.text)")
        #expect(!r.planted)
    }

    static let berlinStandup = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//widgethost tests//EN
        BEGIN:VEVENT
        UID:standup@test
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260302T103000
        DTEND;TZID=Europe/Berlin:20260302T104500
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
        SUMMARY:Standup
        END:VEVENT
        END:VCALENDAR
        """

    static func oneEvent(_ uid: String, _ start: String, _ end: String, _ title: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260101T000000Z\n"
            + "DTSTART;TZID=Europe/Berlin:\(start)\nDTEND;TZID=Europe/Berlin:\(end)\nSUMMARY:\(title)\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    /// Monday 2026-03-16 08:00 in Berlin (07:00 UTC), the pictures' frozen clock.
    static let monday = Date(timeIntervalSince1970: 1_773_644_400)

    /// A zone (POSIX `TZ`) in which it is now 10:00–10:59, and today's date there (`YYYYMMDD`):
    /// a worker runs on the machine's clock (the shifted-clock shim is not in its environment),
    /// so the test picks the zone that puts any instant at the same time of day.
    static func morningZone() -> (tz: String, day: String) {
        var now = time(nil)
        var utc = tm()
        gmtime_r(&now, &utc)
        var offset = 10 - Int(utc.tm_hour)
        if offset < -12 { offset += 24 } else if offset > 14 { offset -= 24 }
        var shifted = now + time_t(offset * 3600)
        var local = tm()
        gmtime_r(&shifted, &local)
        func two(_ n: Int32) -> String { (n < 10 ? "0" : "") + String(n) }
        let day = String(local.tm_year + 1900) + two(local.tm_mon + 1) + two(local.tm_mday)
        return ("CAL\(offset >= 0 ? "-" : "+")\(abs(offset))", day)
    }

    static func floating(_ uid: String, _ start: String, _ end: String, _ title: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260101T000000Z\n"
            + "DTSTART:\(start)\nDTEND:\(end)\nSUMMARY:\(title)\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    @Test func theNextEventShowsAndANewFileRenamedInChangesItAtOnce() throws {
        let (tz, day) = Self.morningZone()
        // HOME is the test's own folder: the bundle reads khal's folder under it, nothing of the machine's.
        let home = TempDir(); defer { home.remove() }
        let work = home.path + "/.local/share/calendars/work"
        _ = run("/bin/mkdir", ["-p", work])
        FileManagerFree.write(work + "/standup.ics", Self.floating("standup@test", day + "T113000", day + "T114500", "Standup"))
        FileManagerFree.write(work + "/color", "#1E88E5\n")
        FileManagerFree.write(work + "/broken.ics", "BEGIN:VCALENDAR\nthis is not iCalendar\n")
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}, "widgets": [{"kind": "UpNext", "family": "accessoryInline", "id": "upnext"}]}"#
        let d = try RunningDaemon(config: config, environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "TZ": tz, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        #expect(eventually { d.text("upnext") == "11:30 Standup" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")

        // vdirsyncer's way: a new file under a temp name, renamed in. The next timeline entry is
        // at 11:30; the output changes long before, on the folder's change.
        FileManagerFree.write(work + "/.dentist.ics.tmp", Self.floating("dentist@test", day + "T110000", day + "T113000", "Dentist"))
        rename(work + "/.dentist.ics.tmp", work + "/dentist.ics")
        #expect(eventually { d.text("upnext") == "11:00 Dentist" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
        #expect(d.stderr.contains("broken.ics: not iCalendar text"), "the broken file is one log line")
    }

    /// khal's folder made after the worker started (a first `vdirsyncer sync`): the host sees it
    /// appear, restarts the worker so its sandbox binds it, and the event shows.
    @Test func aCalendarFolderMadeLaterIsReadOnceItAppears() throws {
        let (tz, day) = Self.morningZone()
        let home = TempDir(); defer { home.remove() }
        _ = run("/bin/mkdir", ["-p", home.path + "/.local/share"])
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}, "widgets": [{"kind": "UpNext", "family": "accessoryInline", "id": "upnext"}]}"#
        let d = try RunningDaemon(config: config, environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "TZ": tz, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        #expect(eventually { d.text("upnext") == "No more events today" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
        let staged = home.path + "/.local/share/.calendars.tmp"
        _ = run("/bin/mkdir", ["-p", staged + "/work"])
        FileManagerFree.write(staged + "/work/standup.ics", Self.floating("standup@test", day + "T113000", day + "T114500", "Standup"))
        rename(staged, home.path + "/.local/share/calendars")
        #expect(eventually { d.text("upnext") == "11:30 Standup" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
    }
}

extension CalendarWidgetTests {
    static func upNextConfig(_ widgets: String, bundles: String = "") -> String {
        #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}, "widgets": ["#
            + widgets + "]" + bundles + "}"
    }

    /// A single `.ics` file is watched through its folder: a granted file an editor replaces
    /// (written under a temp name, renamed over it) and the declared `~/.calendar.ics` made
    /// after the start each change the output at once, with no timeline entry due (the first
    /// entries are 11:30 and midnight). The worker is restarted for each: its sandbox bound the
    /// file that was there when it started.
    @Test func aSingleFileReplacedOrMadeLaterChangesTheOutputAtOnce() throws {
        let (tz, day) = Self.morningZone()
        let home = TempDir(); defer { home.remove() }
        let team = home.path + "/Sync/team.ics"
        _ = run("/bin/mkdir", ["-p", home.path + "/Sync"])
        FileManagerFree.write(team, Self.floating("standup@test", day + "T113000", day + "T114500", "Standup"))
        let grant = #", "bundles": {"org.widgethost.calendar": {"filesystems": [""# + team + #":ro"]}}"#
        let d = try RunningDaemon(config: Self.upNextConfig(#"{"kind": "UpNext", "family": "accessoryInline", "id": "upnext"}"#, bundles: grant),
                                  environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "TZ": tz, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        #expect(eventually { d.text("upnext") == "11:30 Standup" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")

        // An editor's save: a temp file in the same folder, renamed over the calendar.
        FileManagerFree.write(home.path + "/Sync/.team.ics.tmp", Self.floating("dentist@test", day + "T110000", day + "T113000", "Dentist"))
        rename(home.path + "/Sync/.team.ics.tmp", team)
        #expect(eventually { d.text("upnext") == "11:00 Dentist" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")

        // The declared single file, absent at the start, appears (renamed in).
        FileManagerFree.write(home.path + "/.calendar.ics.part", Self.floating("call@test", day + "T105900", day + "T115900", "Call"))
        rename(home.path + "/.calendar.ics.part", home.path + "/.calendar.ics")
        #expect(eventually { d.text("upnext") == "10:59 Call" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")

        // Written in place (same file): read again too.
        FileManagerFree.write(home.path + "/.calendar.ics", Self.floating("call@test", day + "T105800", day + "T115900", "Call moved"))
        #expect(eventually { d.text("upnext") == "10:58 Call moved" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")

        // Removed: its event goes.
        unlink(home.path + "/.calendar.ics")
        #expect(eventually { d.text("upnext") == "11:00 Dentist" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
    }

    /// The `calendars` picker on a real host: `gallery --json` (the Edit Widget form's catalog)
    /// offers "All Calendars" and each calendar by name, with its path as the id, as the
    /// bundle's serving worker sees them; a widget configured with one shows only its events,
    /// an old config's free text ("WORK") still picks by name, and `configure` with an offered
    /// id changes what a widget shows.
    @Test func theGalleryOffersTheCalendarsAndAPickedOneShowsOnlyItsEvents() throws {
        let (tz, day) = Self.morningZone()
        let home = TempDir(); defer { home.remove() }
        let calendars = home.path + "/.local/share/calendars"
        _ = run("/bin/mkdir", ["-p", calendars + "/work", calendars + "/home"])
        FileManagerFree.write(calendars + "/work/standup.ics", Self.floating("standup@test", day + "T113000", day + "T114500", "Standup"))
        FileManagerFree.write(calendars + "/work/displayname", "Work\n")
        FileManagerFree.write(calendars + "/home/dentist.ics", Self.floating("dentist@test", day + "T110000", day + "T113000", "Dentist"))
        FileManagerFree.write(calendars + "/home/displayname", "Home\n")
        let widgets = #"{"kind": "UpNext", "family": "accessoryInline", "id": "all"}, "#
            + #"{"kind": "UpNext", "family": "accessoryInline", "id": "work", "parameters": {"calendars": ""# + calendars + #"/work"}}, "#
            + #"{"kind": "UpNext", "family": "accessoryInline", "id": "legacy", "parameters": {"calendars": "WORK"}}"#
        let d = try RunningDaemon(config: Self.upNextConfig(widgets), environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "TZ": tz, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        #expect(eventually { d.text("all") == "11:00 Dentist" }, "\(d.text("all") ?? "nil") \(d.stderr.suffix(3000))")
        #expect(eventually { d.text("work") == "11:30 Standup" }, "\(d.text("work") ?? "nil") \(d.stderr.suffix(3000))")
        #expect(eventually { d.text("legacy") == "11:30 Standup" }, "\(d.text("legacy") ?? "nil") \(d.stderr.suffix(3000))")

        let file = d.dir.path + "/config.json"
        var offered: [EnumOption] = []
        #expect(eventually { offered = Self.offeredCalendars(config: file, home: home.path); return offered.count == 3 }, "\(offered)")
        #expect(offered == [EnumOption(value: "", title: "All Calendars"), EnumOption(value: calendars + "/home", title: "Home"),
                            EnumOption(value: calendars + "/work", title: "Work")])

        let configure = run(TestPaths.widgethost, ["configure", "all", "calendars=\(calendars)/work", "--config", file], environment: ["HOME": home.path])
        #expect(configure.status == 0, "\(configure.stderr)")
        #expect(eventually { d.text("all") == "11:30 Standup" }, "\(d.text("all") ?? "nil") \(d.stderr.suffix(3000))")
    }

    /// The calendars `gallery --json` offers (id, title); [] when it fails or has no entity `calendars`.
    static func offeredCalendars(config file: String, home: String) -> [EnumOption] {
        let gallery = run(TestPaths.widgethost, ["gallery", "--json", "--config", file], environment: ["HOME": home])
        guard gallery.status == 0, let items = try? WireCodec.decode([[String: JSONValue]].self, from: Data(gallery.stdout.utf8)),
              let parameter = items.first(where: { $0["kind"] == .string("UpNext") })?["parameters"]?.arrayValue?
                  .compactMap(\.objectValue).first(where: { $0["name"] == .string("calendars") }),
              parameter["type"] == .string("entity") else { return [] }
        return (parameter["options"]?.arrayValue ?? []).compactMap { o in
            o.objectValue.flatMap { o in o["value"]?.stringValue.flatMap { v in o["title"]?.stringValue.map { EnumOption(value: v, title: $0) } } }
        }
    }

    /// A bundle installed unplaced keeps no worker, so nothing lists its calendars; placed later
    /// (`widgethost add`), its first serving worker is asked, and the gallery offers them.
    @Test func aBundlePlacedLaterOffersItsCalendarsOnceItsWorkerServes() throws {
        let home = TempDir(); defer { home.remove() }
        let calendars = home.path + "/.local/share/calendars"
        _ = run("/bin/mkdir", ["-p", calendars + "/work"])
        FileManagerFree.write(calendars + "/work/standup.ics", Self.oneEvent("standup@test", "20260302T103000", "20260302T104500", "Standup"))
        FileManagerFree.write(calendars + "/work/displayname", "Work\n")
        let d = try RunningDaemon(config: Self.upNextConfig(""), environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        let file = d.dir.path + "/config.json"
        // Described under the base sandbox, which reads no calendar (without a sandbox it would).
        if sandboxTestsRun {
            #expect(eventually { Self.offeredCalendars(config: file, home: home.path).map(\.title) == ["All Calendars"] }, "\(d.stderr.suffix(3000))")
        }
        let add = run(TestPaths.widgethost, ["add", "UpNext", "--family", "accessoryInline", "--config", file], environment: ["HOME": home.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(eventually { Self.offeredCalendars(config: file, home: home.path).map(\.title) == ["All Calendars", "Work"] },
                "\(Self.offeredCalendars(config: file, home: home.path)) \(d.stderr.suffix(3000))")
    }
}

/// Pictures of the calendar bundle, every family (`PictureGoldenTests`' mechanism and
/// tolerance, its frozen clock at Monday 2026-03-16 08:00 in Berlin): a "Work" calendar (blue,
/// its `color` file) with a weekly standup, a "Home" one with a birthday that day and a dentist
/// on Wednesday; HOME is the test's own folder. Snapshots are compared; each golden was looked
/// at before it was committed (re-record: `WIDGETHOST_UPDATE_GOLDENS=1 swift test --skip-build
/// --filter CalendarWidgetGoldenTests`, then look at every picture).
@Suite struct CalendarWidgetGoldenTests {
    @Test func picturesMatchTheGoldens() throws {
        let dir = TempDir(); defer { dir.remove() }
        let calendars = dir.path + "/home/.local/share/calendars"
        _ = run("/bin/mkdir", ["-p", calendars + "/work", calendars + "/home", dir.path + "/containers"])
        FileManagerFree.write(calendars + "/work/standup.ics", CalendarWidgetTests.berlinStandup)
        FileManagerFree.write(calendars + "/work/color", "#1E88E5\n")
        FileManagerFree.write(calendars + "/work/displayname", "Work\n")
        FileManagerFree.write(calendars + "/home/displayname", "Home\n")
        FileManagerFree.write(calendars + "/home/birthday.ics", """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//t//EN
            BEGIN:VEVENT
            UID:bday@test
            DTSTAMP:20260101T000000Z
            DTSTART;VALUE=DATE:20260316
            SUMMARY:Anna's Birthday
            END:VEVENT
            END:VCALENDAR
            """)
        FileManagerFree.write(calendars + "/home/dentist.ics", CalendarWidgetTests.oneEvent("dentist@test", "20260318T140000", "20260318T150000", "Dentist"))
        let out = dir.path + "/png"
        let r = run("/usr/bin/timeout", ["300", TestPaths.widgethost, "preview", TestPaths.plugin("CalendarWidget"), "--png", out, "--scale", "2"],
                    environment: try frozenClockEnvironment(at: CalendarWidgetTests.monday, timeZone: "Europe/Berlin").merging(
                        ["FONTCONFIG_FILE": PictureGoldenTests.fontsConf, "WIDGETHOST_CONTAINERS": dir.path + "/containers",
                         "XDG_CACHE_HOME": dir.path + "/cache", "HOME": dir.path + "/home", "XDG_DATA_HOME": dir.path + "/home/.local/share"]) { $1 })
        #expect(r.status == 0, "\(r.stdout.suffix(2000)) \(r.stderr.suffix(2000))")
        // What the bundle reads, where a person looks before placing it.
        #expect(r.stdout.contains("Bundle org.widgethost.calendar (SDK \(openWidgetKitVersion), ABI 1), reads: xdg-data/calendars:ro, ~/.calendars:ro, ~/.calendar.ics:ro"), "\(r.stdout.prefix(300))")
        try PictureGoldenTests.compare(listDirectory(out).filter { $0.hasSuffix("-snapshot.png") }.sorted(), in: out,
                                       with: PictureGoldenTests.goldenDir + "/CalendarWidget")
    }
}
