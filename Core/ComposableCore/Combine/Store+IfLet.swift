#if canImport(OpenCombineShim)
  @preconcurrency import OpenCombineShim

  extension Store {
    /// Calls `unwrap` with a store of the wrapped state each time the state becomes non-`nil`,
    /// and `else` each time it becomes `nil`, starting with the state now: how UIKit-era code
    /// shows and hides a child. The subscription keeps this store alive until it is cancelled.
    public func ifLet<Wrapped>(
      then unwrap: @escaping (_ store: Store<Wrapped, Action>) -> Void,
      else: @escaping () -> Void = {}
    ) -> any Cancellable where State == Wrapped? {
      publisher
        .removeDuplicates { ($0 != nil) == ($1 != nil) }
        .sink { state in
          MainActor.assumeIsolated {
            guard var last = state else { return `else`() }
            // Once the state is gone, the child's store still reads the last state it had, as
            // a screen being dismissed still draws it.
            unwrap(
              self.scopeThroughFunctions(
                state: { state in
                  if let state { last = state }
                  return last
                },
                action: { $0 }
              )
            )
          }
        }
    }
  }
#endif
