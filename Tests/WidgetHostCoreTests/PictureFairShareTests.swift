import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// Issue 23, item 3, on virtual time: each widget's share of the render process.
@Suite struct PictureFairShareTests {
    let budget = PictureFairShare.Budget()  // 2 s, refilled over 10 s, turns of at least 0.25 s
    var budgets: (String) -> PictureFairShare.Budget { { _ in PictureFairShare.Budget() } }

    @Test func aBucketStartsFullIsChargedAndRefillsAtAFifthOfASecondPerSecond() {
        var f = PictureFairShare()
        #expect(f.balance(of: "w", budget: budget, now: 100) == 2)
        #expect(f.deadline("w", budget: budget, timeout: 5, now: 100) == 2, "a picture's deadline is what the widget saved up")
        #expect(f.deadline("w", budget: budget, timeout: 0.5, now: 100) == 0.5, "never more than picture.timeoutSeconds")
        f.charge("w", seconds: 2, budget: budget, now: 102)
        #expect(f.balance(of: "w", budget: budget, now: 102) == 0)
        #expect(f.readyAt("w", budget: budget, now: 102) == 103.25, "0.25 s saved up at 0.2 s per second")
        #expect(f.balance(of: "w", budget: budget, now: 107) == 1)
        #expect(f.deadline("w", budget: budget, timeout: 5, now: 107) == 1)
        #expect(f.balance(of: "w", budget: budget, now: 200) == 2, "never more than the budget")
        f.charge("w", seconds: 0.5, budget: budget, now: 200)
        #expect(f.balance(of: "w", budget: budget, now: 150) == 1.5, "a clock set back earns nothing")
        f.charge("w", seconds: 60, budget: budget, now: 200)
        #expect(f.balance(of: "w", budget: budget, now: 200) == -2, "a debt is at most one budget")
    }

    @Test func failuresInARowWaitOneSecondDoublingToAMinuteAndASuccessStartsOver() {
        var f = PictureFairShare()
        #expect((1...8).map { _ in f.failed("w", budget: budget, now: 0) } == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(f.failures(of: "w") == 8)
        #expect(f.readyAt("w", budget: budget, now: 0) == 60)
        f.succeeded("w")
        #expect(f.failures(of: "w") == 0)
        #expect(f.readyAt("w", budget: budget, now: 0) == 0)
        #expect(f.failed("w", budget: budget, now: 10) == 1)
        f.remove("w")
        #expect(f.failures(of: "w") == 0 && f.balance(of: "w", budget: budget, now: 10) == 2)
    }

    @Test func widgetsInGoodStandingGoFirstThenFailingOnesInTheOrderTheyAsked() {
        var f = PictureFairShare()
        f.failed("bad", budget: budget, now: 0)  // ready again at 1
        #expect(f.next(["bad", "a", "b"], budget: budgets, now: 0).id == "a")
        #expect(f.next(["bad", "b", "a"], budget: budgets, now: 1).id == "b")
        #expect(f.next(["bad"], budget: budgets, now: 0) == (nil, 1), "nobody ready: wake when the first is")
        #expect(f.next(["bad"], budget: budgets, now: 1).id == "bad")
        f.charge("a", seconds: 2, budget: budget, now: 1)
        #expect(f.next(["a", "bad"], budget: budgets, now: 1).id == "bad", "a is out of budget until 2.25")
        #expect(f.next(["a"], budget: budgets, now: 1) == (nil, 2.25))
        let small = PictureFairShare.Budget(seconds: 0.5, refillSeconds: 10, minimumTurn: 0.25)
        #expect(f.next(["s"], budget: { _ in small }, now: 1).id == "s")
        #expect(f.deadline("s", budget: small, timeout: 5, now: 1) == 0.5, "a widget's own budgetSeconds")
    }
}

/// `PictureOutputs` wired to `PictureFairShare`, against a fake render process on virtual time.
@Suite struct PictureOutputsFairnessTests {
    let logger = Logger(label: "test")

    func config() throws -> HostConfig {
        var c = try ConfigParser.parse(Data(), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        c.paths.out = "/tmp/out"
        return c
    }

    func spec(_ id: String) -> InstanceSpec { InstanceSpec(id: id, bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.png]) }
    func text(_ s: String) -> ViewNode { var n = ViewNode(kind: .text); n.text = s; return n }

    @Test func aWidgetKilledAtItsDeadlineWaitsItsBackoffAndItsBudgetWhileTheOthersAreDrawn() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        var problems: [String] = []
        p.onProblem = { id, reason in problems.append("\(id): \(reason ?? "fine")") }
        p.show(spec("hostile"), view: text("h0"), now: loop.now, live: false)
        p.show(spec("clock"), view: text("c0"), now: loop.now, live: false)
        #expect(launcher.current.requests.map(\.timeout) == [2], "the deadline is the hostile widget's budget, not 5 s")
        loop.advance(by: 2)
        launcher.current.answer(failure: "the render process missed its deadline and was killed")
        #expect(problems == ["hostile: picture not drawn: the render process missed its deadline and was killed (1 failure in a row; next try in 1 s or later)"])
        // The clock goes at once, in a new render process.
        #expect(launcher.launched.count == 2)
        #expect(launcher.current.requests.map(\.request.id) == ["clock"])
        p.show(spec("hostile"), view: text("h1"), now: loop.now, live: false)
        loop.advance(by: 0.05)
        launcher.current.answer()
        // Its backoff ends at 3 s, its bucket holds 0.25 s at 3.25 s: not before.
        loop.advance(by: 1.19)
        #expect(launcher.current.requests.count == 1)
        loop.advance(by: 0.02)
        #expect(launcher.current.requests.map(\.request.id) == ["clock", "hostile"])
        #expect(abs(launcher.current.requests[1].timeout - 0.25) < 1e-6, "its deadline is what it saved up")
        // A clock picture asked meanwhile waits for the one being drawn, then goes before the
        // hostile widget's next.
        p.show(spec("clock"), view: text("c1"), now: loop.now, live: false)
        loop.advance(by: 0.25)
        launcher.current.answer(failure: "the render process missed its deadline and was killed")
        #expect(problems.last == "hostile: picture not drawn: the render process missed its deadline and was killed (2 failures in a row; next try in 2 s or later)")
        p.show(spec("hostile"), view: text("h2"), now: loop.now, live: false)
        #expect(launcher.current.requests.map(\.request.id) == ["clock"])
        launcher.current.answer()
        // Drawn once it may: the mark goes.
        loop.advance(by: 10)
        #expect(launcher.current.requests.map(\.request.id) == ["clock", "hostile"])
        launcher.current.answer()
        #expect(problems.last == "hostile: fine")
        // Failing again, then its picture output dropped: nothing is behind any more.
        p.show(spec("hostile"), view: text("h3"), now: loop.now, live: false)
        launcher.current.answer(written: false, failure: "the render process was killed by signal 9")
        #expect(problems.last?.hasPrefix("hostile: picture not drawn: the render process was killed by signal 9 (1 failure") == true)
        p.show(InstanceSpec(id: "hostile", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.files]),
               view: text("h3"), now: loop.now, live: false)
        #expect(problems.last == "hostile: fine")
    }

    @Test func overThirtySecondsAWidgetThatAlwaysTimesOutTakesAFifthOfTheRenderProcessAtMost() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        var clockDrawn = 0, hostileSeconds = 0.0, t = 0.0
        // Every 10 ms: both widgets show a new tree each whole second; the render process answers
        // a clock picture after 50 ms and lets a hostile one run into its deadline.
        var busySince: Double?
        while t < 30 {
            if (t * 100).rounded().truncatingRemainder(dividingBy: 100) == 0 {
                p.show(spec("hostile"), view: text("h\(t)"), now: loop.now, live: false)
                p.show(spec("clock"), view: text("c\(t)"), now: loop.now, live: false)
            }
            let c = launcher.current
            if let last = c.requests.last, c.replies.count == 1 {
                let since = busySince ?? t
                busySince = since
                if last.request.id == "clock", t - since >= 0.05 - 1e-9 { c.answer(); clockDrawn += 1; busySince = nil }
                else if last.request.id == "hostile", t - since >= last.timeout - 1e-9 {
                    hostileSeconds += t - since
                    c.answer(failure: "the render process missed its deadline and was killed"); busySince = nil
                }
            }
            loop.advance(by: 0.01)
            t += 0.01
        }
        // Its bucket (2 s, then 0.2 s per second) bounds it, and its backoff keeps it below:
        // 2 s at 0, then what it saved up by 3.25 s (0.25), 5.5 s (0.45), 9.95 s (0.89) and
        // 18.85 s (1.78); the next try would be at 36.6 s.
        #expect(hostileSeconds <= 2 + 0.2 * 30)
        #expect(abs(hostileSeconds - 5.37) < 0.1, "hostile: \(hostileSeconds) s")
        #expect(clockDrawn >= 25, "the clock was drawn \(clockDrawn) times in 30 s")
    }

    @Test func eachRequestCarriesTheSizeBudgetAndTheProcessItsLimits() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        var c = try config()
        c.defaults.picture.maxFileKB = 512
        let p = PictureOutputs(config: c, loop: loop, launcher: launcher, logger: logger)
        p.show(spec("w"), view: text("a"), now: loop.now, live: false)
        #expect(launcher.current.requests.first?.request.maxBytes == 512 * 1024)
        #expect(launcher.limits == [PictureRenderLimits(outDirectory: "/tmp/out", memoryMB: 256)])
        launcher.current.answer()
        // A new out folder: the sandboxed process cannot write it, a new one is started.
        c.paths.out = "/tmp/out2"
        p.apply(c)
        #expect(launcher.launched[0].stopped)
        #expect(launcher.limits.map(\.outDirectory) == ["/tmp/out", "/tmp/out2"])
    }
}
