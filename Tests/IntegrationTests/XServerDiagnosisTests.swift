import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The paragraph a display test's failure message carries (`XServer.diagnosis()`): it tells an
/// Xvfb that runs and serves its display from one that was killed, and names the signal.
@Suite struct XServerDiagnosisTests {
    @Test func itSaysWhetherTheXvfbRunsAndServesOrHowItEnded() throws {
        guard let x = try XServer.start(width: 64, height: 64) else { return }
        let socket = "@/tmp/.X11-unix/X\(x.display.dropFirst())"
        let running = x.diagnosis()
        #expect(running.contains("Xvfb pid \(x.pid) runs"), "\(running)")
        #expect(running.contains("\(socket): listened on by \(x.pid) (Xvfb, uid "), "\(running)")
        #expect(running.contains("a connection now: accepted"), "\(running)")

        kill(x.pid, SIGKILL)
        #expect(eventually { x.diagnosis().contains("Xvfb pid \(x.pid) was killed by signal 9 (Killed)") }, "\(x.diagnosis())")
        // Another test's Xvfb may take the freed number at once: only this one is known gone.
        let gone = x.diagnosis()
        #expect(!gone.contains("listened on by \(x.pid) "), "\(gone)")
        #expect(gone.contains("Xvfb stdout \"\(x.display.dropFirst())\\n\""), "\(gone)")
    }
}
