import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Turns signals into a callback with the signal's number (and keeps their default action
/// from killing the process).
public final class SignalWatch: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  public init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
    sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      return source
    }
  }

  public func cancel() { for source in sources { source.cancel() } }
}
