import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 4: what the desktop surface reads from `out/` is bounded and checked before
/// anything decodes or uses it.
@Suite struct OutFileReaderTests {
    @Test func aFIFOIsRefusedAtOnceInsteadOfBlockingTheReader() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let fifo = dir.path + "/w.png"
        try #require(mkfifo(fifo, 0o644) == 0)
        // No writer: a blocking open would never return.
        #expect(OutFileReader.read(fifo, limit: 1 << 20) == .failure(.notRegularFile))
        #expect(OutFileReader.read("/dev/zero", limit: 1 << 20) == .failure(.notRegularFile))
    }

    @Test func aFileOverTheLimitIsRefusedUnreadAndALinkIsNotFollowed() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let big = dir.path + "/big.png"
        let fd = open(big, O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0)
        try #require(ftruncate(fd, 200 << 20) == 0)  // 200 MB, sparse
        close(fd)
        #expect(OutFileReader.read(big, limit: 1 << 20) == .failure(.tooLarge(bytes: 200 << 20, limit: 1 << 20)))
        try FileIO.writeAtomically(Data("hello".utf8), to: dir.path + "/small")
        #expect(OutFileReader.read(dir.path + "/small", limit: 5) == .success(Data("hello".utf8)))
        #expect(OutFileReader.read(dir.path + "/small", limit: 4) == .failure(.tooLarge(bytes: 5, limit: 4)))
        symlink(dir.path + "/small", dir.path + "/link")
        #expect(OutFileReader.read(dir.path + "/link", limit: 5) == .failure(.cannotOpen("a symbolic link")))
        #expect(OutFileReader.read(dir.path + "/gone", limit: 5) == .failure(.missing))
    }
}

@Suite struct PictureFileCheckTests {
    /// The first 24 bytes of a PNG: signature, IHDR length and type, width, height.
    func header(_ w: UInt32, _ h: UInt32) -> Data {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [w, h] { b += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Data(b + [8, 6, 0, 0, 0])
    }

    func refusal(_ r: Result<(width: Int, height: Int), PictureFileCheck.Refusal>) -> PictureFileCheck.Refusal? {
        if case .failure(let why) = r { return why }
        return nil
    }

    @Test func onlyTheWidgetsSizeAtItsScaleIsAccepted() {
        #expect(PictureFileCheck.pngSize(header(316, 316))! == (316, 316))
        #expect(PictureFileCheck.check(header(316, 316), family: .systemSmall, scale: 2).map { $0.width } == .success(316))
        #expect(PictureFileCheck.check(header(474, 474), family: .systemSmall, scale: nil).map { $0.width } == .success(474),
                "no regions yet: any of the scales 1, 2, 3")
        #expect(refusal(PictureFileCheck.check(header(474, 474), family: .systemSmall, scale: 2))
                == .unexpectedSize(width: 474, height: 474, expected: "316 × 316"))
        #expect(refusal(PictureFileCheck.check(header(30000, 30000), family: .systemSmall, scale: nil))
                == .unexpectedSize(width: 30000, height: 30000, expected: "158 × 158, 316 × 316, 474 × 474"))
        #expect(PictureFileCheck.check(header(30000, 30000), family: nil, scale: nil).map { $0.width } != .success(30000))
        #expect(refusal(PictureFileCheck.check(Data("not a picture\n".utf8), family: .systemSmall, scale: 2)) == .notPNG)
        #expect(refusal(PictureFileCheck.check(header(316, 316).prefix(20), family: .systemSmall, scale: 2)) == .notPNG)
    }

    @Test func theFileSizeLimitIsThePicturesPixelsStoredUncompressedAndSomeRoom() {
        // 316 rows of a filter byte and 316 RGBA pixels: 399 740 bytes, plus 1/64 and 64 KiB.
        #expect(PictureFileCheck.maxBytes(family: .systemSmall, scale: 2) == 399_740 + 6_245 + 65_536)
        #expect(PictureFileCheck.maxBytes(family: .systemSmall, scale: 1e300) == 65_536, "no scale allowed: nothing but headers")
        #expect(PictureFileCheck.maxBytes(family: nil, scale: nil) < 16 << 20, "the largest family at scale 3")
    }
}

@Suite struct PictureRegionsValidationTests {
    func file(scale: String = "2", width: String = "316", region: String = #"{"kind":"button","x":10,"y":10,"width":50,"height":40,"target":"0"}"#) -> Data {
        Data(#"{"width":\#(width),"height":316,"scale":\#(scale),"regions":[\#(region)]}"#.utf8)
    }

    @Test func everyNumberIsCheckedBeforeAReaderUsesIt() {
        #expect(PictureRegions.decode(file())?.regions.count == 1)
        for scale in ["1e300", "1e-300", "0", "-2", "0.5", "4"] {
            #expect(PictureRegions.decode(file(scale: scale)) == nil, "scale \(scale)")
        }
        for width in ["0", "-316", "1e300", "30000"] {
            #expect(PictureRegions.decode(file(width: width)) == nil, "width \(width)")
        }
        for region in [#"{"kind":"button","x":1e300,"y":10,"width":50,"height":40}"#,
                       #"{"kind":"button","x":10,"y":10,"width":-50,"height":40}"#,
                       #"{"kind":"button","x":10,"y":-1e308,"width":50,"height":40}"#] {
            #expect(PictureRegions.decode(file(region: region)) == nil, "\(region)")
        }
    }
}
