// `import Combine` for widget code: OpenCombine (a reimplementation of Apple's Combine) under
// Apple's module name, and `DispatchQueue` a `Scheduler` (DispatchQueue+Scheduler.swift), so a
// provider's `.receive(on: DispatchQueue.main)` compiles as written. No Foundation (ICU):
// OpenCombineFoundation is left out; OpenCombineDispatch too (its conformance is compiled only
// where no module named `Combine` can be imported, which after a first build is never here).
//
// Threading: as Combine's: a scheduler runs its work on its queue.
@_exported import OpenCombine
