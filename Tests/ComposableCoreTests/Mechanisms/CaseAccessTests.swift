import ComposableCore
import Foundation
import Testing

/// A reference payload, equal only to itself, to check that payloads keep their retain counts.
final class Token: Equatable, Sendable {
  let name: String
  init(_ name: String) { self.name = name }
  static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
}

@CasePathable @_CaseAccessors
enum Mixed: Equatable {
  case empty
  case number(Int)
  case text(String)
  case pair(Int, String)
  case labeled(id: Int, name: String)
  case single(id: Int)
  case unnamed(_ count: Int)
  case other
  case token(Token)
}

extension Mixed.AllCasePaths {
  /// A hand-written case path that is not simply "in the case": even numbers, halved.
  var halved: AnyCasePath<Mixed, Int> {
    AnyCasePath(
      embed: { .number($0 * 2) },
      extract: {
        guard case .number(let number) = $0, number.isMultiple(of: 2) else { return nil }
        return number / 2
      }
    )
  }
}

@CasePathable @_CaseAccessors
enum Boxed: Equatable {
  indirect case nested(Boxed)
  case value(Int)
}

@CasePathable @_CaseAccessors
indirect enum Tree: Equatable {
  case leaf(Int)
  case node(Tree, Tree)
}

@CasePathable @_CaseAccessors
enum Inner: Equatable {
  case grandchild(Int)
  case other
}

@CasePathable @_CaseAccessors
enum Outer: Equatable {
  case child(Inner)
  case nothing
}

/// A presented child's actions, with one case of each kind of payload.
@CasePathable @_CaseAccessors
enum Sheet: Equatable {
  case count(Int)
  case note(String)
  case close
  case pair(Int, String)
}

/// A generic enum presenting a generic enum's cases.
@CasePathable @_CaseAccessors
enum GenericPresenting<Value: Equatable & Sendable>: Equatable {
  case sheet(PresentationAction<Sheet>)
  case wrapped(PresentationAction<Wrapper<Value>>)
  case value(Value)
}

/// Two cases presenting the same child, so that a path must be told from the other by its case.
@CasePathable @_CaseAccessors
enum Presenting: Equatable {
  case sheet(PresentationAction<Sheet>)
  case popover(PresentationAction<Sheet>)
  case wrapped(Wrapper<Int>)
  case tapped
}

struct Large: Equatable {
  var values = Array(repeating: 0, count: 3)
  var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10
  var k = 11, l = 12, m = 13, n = 14, o = 15, p = 16, q = 17, r = 18
  var name = "large"
}

@CasePathable @_CaseAccessors
enum WithLarge: Equatable {
  case large(Large)
  case small(Int)
}

@CasePathable @_CaseAccessors
enum Wrapper<Wrapped: Equatable & Sendable>: Equatable {
  case value(Wrapped)
  case nothing
}

struct Failure: Error, Equatable {
  let code: Int
}

@CasePathable @_CaseAccessors
enum Existential {
  case failed(any Error)
  case value(any Sendable)
  case result(Result<Int, Failure>)
  case nothing
}

/// The payload that crashed the layout-reading accessor: a tuple of a metatype, a class reference
/// and an integer.
@CasePathable @_CaseAccessors
enum Odd {
  case meta(Int.Type, Token, Int)
  case plain(Int)
}

/// The same cases without `@_CaseAccessors`: operators fall back to the key path.
@CasePathable
enum PlainMixed: Equatable {
  case number(Int)
  case text(String)
}

let mixedSamples: [Mixed] = [
  .empty, .number(7), .text("seven"), .pair(7, "seven"), .labeled(id: 7, name: "seven"), .other,
  .token(Token("seven")),
]

/// Checks an accessor against the key path it stands for, on every sample, in both directions.
func expectAgreement<Root: CasePathable & Equatable, Value: Equatable>(
  _ keyPath: CaseKeyPath<Root, Value>,
  _ access: CaseAccess<Root, Value>,
  roots: [Root],
  values: [Value],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for root in roots {
    #expect(access.extract(from: root) == root[case: keyPath], sourceLocation: sourceLocation)
  }
  for value in values {
    #expect(access.embed(value) == keyPath(value), sourceLocation: sourceLocation)
  }
}

/// Embeds and extracts `count` times, checking each value comes back intact.
func roundTrips<Root, Value>(
  _ access: CaseAccess<Root, Value>,
  count: Int = 10_000,
  make: (Int) -> Value,
  equal: (Value, Value) -> Bool
) -> Bool {
  (0..<count).allSatisfy { index in
    let value = make(index)
    guard let back = access.extract(from: access.embed(value)) else { return false }
    return equal(back, value)
  }
}

@Suite struct CaseAccessTests {
  @Test func aCaseOfAnAccessibleEnumUsesItsGeneratedCasePath() {
    let access = CaseAccess(\Mixed.Cases.number)
    #expect(access.isDirect)
    #expect(access.extract(from: .text("no")) == nil)
    #expect(access.extract(from: .number(3)) == 3)
    expectAgreement(\.number, access, roots: mixedSamples, values: [0, -1, .max])
  }

  // `action: \.child` on a plain `@CasePathable` enum names its `AllCasePaths` member, whose case
  // path is taken once; the case key path it stands for is the literal's, for caches.
  @Test func aPlainEnumsMemberIsLookedUpOnce() {
    let access = CaseAccess(\PlainParent<Int>.Action.AllCasePaths.optional)
    #expect(access.isDirect)
    #expect(access.extract(from: .optional(.echo)).map { "\($0)" } == "echo")
    #expect(access.extract(from: .show) == nil)
    #expect(
      access.extract(from: access.embed(.tagged(.some(2)))).map { "\($0)" }
        == "tagged(ComposableCoreTests.Tagged<Swift.Int>.some(2))")
    #expect(
      _caseKeyPath(\PlainParent<Int>.Action.AllCasePaths.optional)
        == \PlainParent<Int>.Action.Cases.optional)
    let accessible = CaseAccess(\Mixed.AllCasePaths.number)
    #expect(accessible.isDirect)
    #expect(accessible.extract(from: .number(3)) == 3)
  }

  @Test func everyKindOfPayloadAgreesWithItsKeyPath() {
    let text = CaseAccess(\Mixed.Cases.text)
    #expect(text.isDirect)
    expectAgreement(\.text, text, roots: mixedSamples, values: ["", "a longer string than fits"])

    let pair = CaseAccess(\Mixed.Cases.pair)
    #expect(pair.isDirect)
    for root in mixedSamples {
      let expected = root[case: \.pair]
      let actual = pair.extract(from: root)
      #expect(actual?.0 == expected?.0 && actual?.1 == expected?.1)
    }
    #expect(pair.embed((2, "two")) == .pair(2, "two"))

    let labeled = CaseAccess(\Mixed.Cases.labeled)
    #expect(labeled.isDirect)
    #expect(labeled.embed((id: 4, name: "four")) == .labeled(id: 4, name: "four"))
    #expect(labeled.extract(from: .labeled(id: 5, name: "five"))?.name == "five")
    #expect(labeled.extract(from: .pair(5, "five")) == nil)

    // One value with a label, or with `_` and a name: the generated embedding writes the label.
    let single = CaseAccess(\Mixed.Cases.single)
    #expect(single.isDirect)
    #expect(single.embed(6) == .single(id: 6))
    #expect(single.extract(from: .single(id: 7)) == 7)
    #expect(single.extract(from: .number(7)) == nil)
    let unnamed = CaseAccess(\Mixed.Cases.unnamed)
    #expect(unnamed.isDirect)
    #expect(unnamed.embed(8) == .unnamed(8))
    #expect(unnamed.extract(from: .unnamed(9)) == 9)
    #expect(unnamed.extract(from: .single(id: 9)) == nil)

    let empty = CaseAccess(\Mixed.Cases.empty)
    #expect(empty.isDirect)
    #expect(empty.extract(from: .empty) != nil)
    #expect(empty.extract(from: .other) == nil)
    #expect(empty.embed(()) == .empty)
  }

  @MainActor
  @Test func tupleWithMetatypeAndReferenceSurvivesRoundTrips() {
    let access = CaseAccess(\Odd.Cases.meta)
    #expect(access.isDirect)
    let token = Token("odd")
    let intact = roundTrips(
      access,
      make: { (Int.self, token, $0) },
      equal: { (lhs: (Int.Type, Token, Int), rhs: (Int.Type, Token, Int)) -> Bool in
        lhs.0 == rhs.0 && lhs.1 === rhs.1 && lhs.2 == rhs.2
      }
    )
    #expect(intact)
    #expect(access.extract(from: .plain(1)) == nil)
    // The same enum through a `Scope`, as the crash report had it.
    let store = Store(initialState: 0) {
      Scope(state: \.self, action: \Odd.Cases.meta) {
        Reduce<Int, (Int.Type, Token, Int)> { state, action in
          state += action.2
          return .none
        }
      }
    }
    for index in 1...100 { store.send(.meta(Int.self, token, index)) }
    #expect(store.state == 5050)
  }

  @Test func largeAndGenericPayloadsSurviveRoundTrips() {
    let large = CaseAccess(\WithLarge.Cases.large)
    #expect(MemoryLayout<Large>.size > 128)
    #expect(
      roundTrips(
        large,
        make: { index in
          var value = Large()
          value.a = index
          value.name = String(repeating: "x", count: index % 50)
          return value
        }, equal: ==)
    )
    expectAgreement(\.large, large, roots: [.large(Large()), .small(1)], values: [Large()])

    #expect(roundTrips(CaseAccess(\Wrapper<String>.Cases.value), make: { "\($0)" }, equal: ==))
    #expect(roundTrips(CaseAccess(\Wrapper<Int8>.Cases.value), make: { Int8($0 % 100) }, equal: ==))
    #expect(
      roundTrips(CaseAccess(\Wrapper<[Int]>.Cases.value), make: { [$0, $0 + 1] }, equal: ==))
    #expect(
      roundTrips(
        CaseAccess(\Wrapper<Large>.Cases.value),
        make: { index in
          var value = Large()
          value.r = index
          return value
        },
        equal: ==
      )
    )
    #expect(CaseAccess(\Wrapper<Large>.Cases.value).isDirect)
  }

  @Test func indirectCasesSurviveTenThousandRoundTrips() {
    let nested = CaseAccess(\Boxed.Cases.nested)
    #expect(nested.isDirect)
    #expect(roundTrips(nested, make: { .value($0) }, equal: ==))
    expectAgreement(
      \.nested, nested, roots: [.value(2), .nested(.nested(.value(3)))], values: [.value(4)])

    let node = CaseAccess(\Tree.Cases.node)
    let nodesIntact = roundTrips(
      node,
      make: { index -> (Tree, Tree) in (.leaf(index), .node(.leaf(index), .leaf(-index))) },
      equal: { (lhs: (Tree, Tree), rhs: (Tree, Tree)) -> Bool in lhs.0 == rhs.0 && lhs.1 == rhs.1 }
    )
    #expect(nodesIntact)
    expectAgreement(\.leaf, CaseAccess(\Tree.Cases.leaf), roots: [.leaf(9)], values: [10])
  }

  @Test func aKeyPathThroughTwoCasesUsesBothCasesFunctions() {
    let access = CaseAccess(\Outer.Cases.child.grandchild)
    #expect(access.isDirect)
    #expect(access.extract(from: .child(.grandchild(5))) == 5)
    #expect(access.extract(from: .child(.other)) == nil)
    #expect(access.extract(from: .nothing) == nil)
    #expect(access.embed(6) == .child(.grandchild(6)))
    #expect(roundTrips(access, make: { $0 }, equal: ==))
    let other = CaseAccess(\Outer.Cases.child.other)
    #expect(other.isDirect)
    #expect(other.embed(()) == .child(.other))
    #expect(other.extract(from: .child(.grandchild(1))) == nil)

    let generic = CaseAccess(\Presenting.Cases.wrapped.value)
    #expect(generic.isDirect)
    expectAgreement(
      \.wrapped.value, generic, roots: [.wrapped(.value(3)), .wrapped(.nothing), .tapped],
      values: [4])
  }

  /// `\.sheet.count` reaches through `.presented`, as a destination's store scopes
  /// (`\.destination.detail`): the store embeds every action it sends that way.
  @Test func aPresentedChildsCaseUsesTheGeneratedFunctions() {
    let roots: [Presenting] = [
      .sheet(.presented(.count(1))), .sheet(.presented(.note("a"))), .sheet(.presented(.close)),
      .sheet(.presented(.pair(2, "b"))), .sheet(.dismiss), .popover(.presented(.count(3))),
      .wrapped(.value(4)), .tapped,
    ]
    let count = CaseAccess(\Presenting.Cases.sheet.count)
    #expect(count.isDirect)
    expectAgreement(\.sheet.count, count, roots: roots, values: [0, -5])
    #expect(roundTrips(count, make: { $0 }, equal: ==))

    // The same child presented by another case is that case's.
    let popover = CaseAccess(\Presenting.Cases.popover.count)
    #expect(popover.isDirect)
    expectAgreement(\.popover.count, popover, roots: roots, values: [7])
    #expect(popover.embed(7) == .popover(.presented(.count(7))))

    let note = CaseAccess(\Presenting.Cases.sheet.note)
    #expect(note.isDirect)
    expectAgreement(\.sheet.note, note, roots: roots, values: ["c"])
    let close = CaseAccess(\Presenting.Cases.sheet.close)
    #expect(close.isDirect)
    #expect(close.embed(()) == .sheet(.presented(.close)))
    #expect(close.extract(from: .sheet(.presented(.close))) != nil)
    #expect(close.extract(from: .sheet(.dismiss)) == nil)
    // A case of several values goes through the case path `@CasePathable` made for it.
    let pair = CaseAccess(\Presenting.Cases.sheet.pair)
    #expect(pair.isDirect)
    #expect(pair.embed((5, "d")) == .sheet(.presented(.pair(5, "d"))))
    #expect(pair.extract(from: .sheet(.presented(.pair(6, "e"))))! == (6, "e"))
    #expect(pair.extract(from: .popover(.presented(.pair(6, "e")))) == nil)

    // Generic enums, on either side of `.presented`.
    let generic = CaseAccess(\GenericPresenting<String>.Cases.sheet.count)
    #expect(generic.isDirect)
    #expect(generic.embed(9) == .sheet(.presented(.count(9))))
    #expect(generic.extract(from: .sheet(.presented(.count(9)))) == 9)
    #expect(generic.extract(from: .value("9")) == nil)
    let wrapped = CaseAccess(\GenericPresenting<String>.Cases.wrapped.value)
    #expect(wrapped.isDirect)
    let wrappedRoots: [GenericPresenting<String>] = [
      .wrapped(.presented(.value("a"))), .wrapped(.presented(.nothing)), .wrapped(.dismiss),
    ]
    expectAgreement(\.wrapped.value, wrapped, roots: wrappedRoots, values: ["b"])

    // Written out through `.presented`, the path has three cases, and keeps the key path.
    let longhand = CaseAccess(\Presenting.Cases.sheet.presented.count)
    #expect(!longhand.isDirect)
    expectAgreement(\.sheet.presented.count, longhand, roots: roots, values: [8])
  }

  @Test func aHandWrittenCasePathKeepsItsOwnRules() {
    let access = CaseAccess(\Mixed.Cases.halved)
    #expect(!access.isDirect)
    #expect(access.extract(from: .number(6)) == 3)
    #expect(access.extract(from: .number(5)) == nil)
    #expect(access.embed(3) == .number(6))
  }

  @Test func anEnumWithoutAccessorsKeepsTheKeyPath() {
    let access = CaseAccess(\PlainMixed.Cases.text)
    #expect(!access.isDirect)
    expectAgreement(\.text, access, roots: [.number(1), .text("a")], values: ["b"])
    let some = CaseAccess(\Int?.Cases.some)
    expectAgreement(\.some, some, roots: [nil, 2], values: [3])
  }

  @Test func existentialPayloadsMoveIntact() {
    let failed = CaseAccess(\Existential.Cases.failed)
    #expect(
      (failed.embed(Failure(code: 1)) as Existential)[case: \.failed] as? Failure == .init(code: 1))
    #expect(failed.extract(from: .failed(Failure(code: 2))) as? Failure == Failure(code: 2))
    #expect(failed.extract(from: .nothing) == nil)

    let value = CaseAccess(\Existential.Cases.value)
    let large: any Sendable = (1, 2, 3, 4, "a string that needs a box")
    let extracted = value.extract(from: .value(large)) as? (Int, Int, Int, Int, String)
    #expect(extracted?.4 == "a string that needs a box")
    #expect(value.extract(from: .value(7)) as? Int == 7)
    #expect(value.extract(from: .failed(Failure(code: 3))) == nil)

    let result = CaseAccess(\Existential.Cases.result)
    #expect(result.extract(from: .result(.success(4))) == .success(4))
    #expect(result.extract(from: .result(.failure(Failure(code: 5)))) == .failure(Failure(code: 5)))
    #expect(result.extract(from: .nothing) == nil)
  }

  @Test func theSelfKeyPathIsTheWholeValue() {
    let access = CaseAccess(\Mixed.Cases.self)
    #expect(access.isDirect)
    for root in mixedSamples {
      #expect(access.extract(from: root) == root)
      #expect(access.embed(root) == root)
    }
  }

  @Test func payloadsKeepTheirReferenceCounts() {
    let access = CaseAccess(\Mixed.Cases.token)
    weak var weakToken: Token?
    do {
      let token = Token("kept")
      weakToken = token
      for _ in 0..<1_000 {
        let root = access.embed(token)
        #expect(access.extract(from: root) === token)
        #expect(access.extract(from: .text("other")) == nil)
      }
      #expect(weakToken != nil)
    }
    #expect(weakToken == nil)
  }

  @Test func concurrentUseAgreesWithTheKeyPath() async {
    let access = CaseAccess(\Mixed.Cases.text)
    await withTaskGroup(of: Bool.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var agreed = true
          for index in 0..<2_000 {
            let root = mixedSamples[(index + worker) % mixedSamples.count]
            agreed = agreed && access.extract(from: root) == root[case: \.text]
            agreed = agreed && access.embed("\(index)") == .text("\(index)")
          }
          return agreed
        }
      }
      for await agreed in group { #expect(agreed) }
    }
  }
}

/// A reducer as features write it: `@Reducer` makes its action enum accessible.
@Reducer
struct Accessed {
  struct State: Equatable {
    var count = 0
  }
  enum Action {
    case child(Int)
    case other
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
  }
}

@Suite struct ReducerCaseAccessTests {
  @Test func reducerActionsUseTheirGeneratedCasePaths() {
    #expect(CaseAccess(\Accessed.Action.Cases.child).isDirect)
    #expect(CaseAccess(\Accessed.Action.Cases.other).isDirect)
    #expect(CaseAccess(\Accessed.Action.Cases.child).extract(from: .child(4)) == 4)
  }
}
