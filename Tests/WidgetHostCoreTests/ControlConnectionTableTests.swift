import Testing
@testable import WidgetHostCore

/// Control-socket connections are capped, and idle or half-sent ones time out (issue 15).
@Suite struct ControlConnectionTableTests {
    @Test func aFullTableMakesRoomByClosingTheQuietestIdleConnection() {
        var t = ControlConnectionTable(capacity: 3, idleSeconds: 10)
        #expect(t.admit(1, now: 0) == nil)
        #expect(t.admit(2, now: 1) == nil)
        #expect(t.admit(3, now: 2) == nil)
        t.activity(1, now: 5)                 // 2 is now the quietest
        #expect(t.admit(4, now: 6) == 2)
        t.requestStarted(3, now: 6)           // 3 is busy: never evicted while its request runs
        t.requestStarted(1, now: 6)
        t.requestStarted(4, now: 6)
        #expect(t.admit(5, now: 7) == 5, "every slot busy: the newcomer is refused")
        #expect(t.count == 3)
    }

    @Test func idleAndHalfLineConnectionsTimeOutButNotOnesWaitingForAReply() {
        var t = ControlConnectionTable(capacity: 10, idleSeconds: 10)
        _ = t.admit(1, now: 0)                // never sends
        _ = t.admit(2, now: 0)
        t.activity(2, now: 4)                 // half a line at 4 s, then nothing
        _ = t.admit(3, now: 0)
        t.requestStarted(3, now: 1)           // a click that takes long
        #expect(t.idle(now: 9.9).isEmpty)
        #expect(t.idle(now: 10) == [1])
        #expect(t.idle(now: 14) == [1, 2])
        #expect(!t.idle(now: 1000).contains(3))
        t.requestEnded(3, now: 20)
        #expect(t.idle(now: 30) == [1, 2, 3])
    }

    @Test func onlySubscriptionsLeaveNothingToSweep() {
        var t = ControlConnectionTable(capacity: 10, idleSeconds: 10)
        #expect(!t.hasConnectionWithoutRequest, "no connection")
        _ = t.admit(1, now: 0)
        #expect(t.hasConnectionWithoutRequest, "a new connection may idle")
        t.requestStarted(1, now: 0)           // a `watch`: its request lasts as long as it does
        #expect(!t.hasConnectionWithoutRequest, "a subscriber alone: the host need not wake to sweep")
        _ = t.admit(2, now: 1)
        #expect(t.hasConnectionWithoutRequest)
        t.requestStarted(2, now: 1)
        t.requestEnded(2, now: 2)             // `status` answered: it may idle now
        #expect(t.hasConnectionWithoutRequest)
        t.remove(2)
        #expect(!t.hasConnectionWithoutRequest)
    }

    @Test func theCapacityLeavesMostDescriptorsToTheRest() {
        #expect(ControlConnectionTable.capacity(forFileLimit: 1024) == 64)
        #expect(ControlConnectionTable.capacity(forFileLimit: 64) == 16)
        #expect(ControlConnectionTable.capacity(forFileLimit: 8) == 4)
    }
}
