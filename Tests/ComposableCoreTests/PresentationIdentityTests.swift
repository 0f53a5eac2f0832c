import ComposableCore
import Testing

/// The identity `@Reducer enum` generates for a presented child: its cases, then its ids, each id
/// equal to another only in the same type and as that type, as cancellation ids are.
struct PresentationIdentityTests {
  @Test func idsAreEqualAsTheirOwnType() {
    #expect(_PresentationIdentity.id(1) == .id(1))
    #expect(_PresentationIdentity.id(1) != .id(2))
    #expect(_PresentationIdentity.id(1) != .id(Int64(1)))
    #expect(_PresentationIdentity.id("a") != .id(Substring("a")))
    #expect(_PresentationIdentity.id(1) != .none)
    #expect(_PresentationIdentity.none == .none)
  }

  @Test func casesAndIdsKeepTheirOrder() {
    func identity(_ first: Int, _ second: String) -> _PresentationIdentity {
      .id(first) + .case("panel") + (.case("ticker") + .id(second))
    }
    #expect(identity(1, "x") == identity(1, "x"))
    #expect(identity(1, "x") != identity(2, "x"))
    #expect(identity(1, "x") != identity(1, "y"))
    #expect(identity(1, "x") != .case("panel.ticker") + .id("x") + .id(1))
    #expect(identity(1, "x") != .case("panel") + .id(1) + .id("x"))
    #expect(identity(1, "x") == .case("panel.ticker") + .id(1) + .id("x"))
  }

  @Test func equalIdentitiesHashAlike() {
    let identities: [_PresentationIdentity] = [
      .case("detail") + .id(7), .case("detail") + .id(7), .case("detail") + .id(Int8(7)),
      .case("detail") + .id(8), .id(7) + .id("a"), .id(7) + .id("a"), .case("other"),
    ]
    #expect(Set(identities).count == 5)
    for (lhs, rhs) in zip(identities, identities.dropFirst()) where lhs == rhs {
      #expect(lhs.hashValue == rhs.hashValue)
    }
  }
}
