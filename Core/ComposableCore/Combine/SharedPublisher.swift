#if canImport(OpenCombineShim)
  import ComposableSharing
  import ConcurrencyExtras
  import OpenCombineShim

  extension Shared {
    /// A publisher of the value: the current one when subscribed to, then each new one, from
    /// whichever thread changed it. A value set inside a change tracker's `assert` is expected,
    /// not changed, and is not published.
    public var publisher: some Publisher<Value, Never> {
      sharedValues(watch: watchChanges) { [self] in wrappedValue }
    }
  }

  extension SharedReader {
    /// A publisher of the value: the current one when subscribed to, then each new one.
    public var publisher: some Publisher<Value, Never> {
      sharedValues(watch: watchChanges) { [self] in wrappedValue }
    }
  }

  /// `read()` when subscribed to, then again after each change `watch` reports, for as long as
  /// the subscription lasts: the watch is released with it.
  private func sharedValues<Value: Sendable>(
    watch: @escaping (@escaping @Sendable () -> Void) -> SharedWatch,
    read: @escaping @Sendable () -> Value
  ) -> some Publisher<Value, Never> {
    Deferred {
      // Unchecked: a subject takes values from any thread; OpenCombine does not say so.
      let subject = UncheckedSendable(PassthroughSubject<Value, Never>())
      let watching = watch { subject.value.send(read()) }
      return subject.value.prepend(read()).handleEvents(receiveCancel: { _ = watching })
    }
  }
#endif
