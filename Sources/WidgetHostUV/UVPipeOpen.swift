import CLibUV

extension UVPipe {
    /// A pipe over an existing file descriptor (e.g. stdin, for i3bar's click events); nil when
    /// libuv cannot use it as a stream (a regular file, /dev/null).
    public static func open(loop: UVLoop, fd: Int32) -> UVPipe? {
        let p = UVPipe(loop: loop)
        guard uv_pipe_open(p.memory.assumingMemoryBound(to: uv_pipe_t.self), fd) == 0 else { p.close(); return nil }
        return p
    }
}
