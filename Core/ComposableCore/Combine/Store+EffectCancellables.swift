#if canImport(OpenCombineShim)
  import Foundation
  @preconcurrency import OpenCombineShim

  @_spi(Internals)
  extension Store {
    /// The root store's effects still running, each under an id that stays its own while it
    /// runs, and cancellable: what TCA's own tests count.
    public var effectCancellables: [UUID: AnyCancellable] {
      Dictionary(
        uniqueKeysWithValues: core.effectsInFlight().map { effect in
          (UUID(runningEffect: effect.id), AnyCancellable(effect.cancel))
        }
      )
    }
  }

  extension UUID {
    /// The id of a store's running effect, as a UUID: its bytes, the rest zero.
    fileprivate init(runningEffect id: Int) {
      let bits = UInt64(truncatingIfNeeded: id)
      let b = (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
      self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
    }
  }
#endif
