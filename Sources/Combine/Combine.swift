// `import Combine` for widget code: OpenCombine (a reimplementation of Apple's Combine) under
// Apple's module name, with OpenCombineDispatch, which makes `DispatchQueue` a `Scheduler`, so
// a provider's `.receive(on: DispatchQueue.main)` compiles as written. No Foundation (ICU):
// OpenCombineFoundation is left out.
//
// Threading: as Combine's: a scheduler runs its work on its queue.
@_exported import OpenCombine
@_exported import OpenCombineDispatch
