import ComposableCore
import Foundation
import Testing

/// A reference payload, equal only to itself, to check that moving payloads keeps retain counts.
final class Token: Equatable, Sendable {
  let name: String
  init(_ name: String) { self.name = name }
  static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
}

@CasePathable
enum Mixed: Equatable {
  case empty
  case number(Int)
  case text(String)
  case pair(Int, String)
  case labeled(id: Int, name: String)
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

@CasePathable
enum Boxed: Equatable {
  indirect case nested(Boxed)
  case value(Int)
}

@CasePathable
indirect enum Tree: Equatable {
  case leaf(Int)
  case node(Tree, Tree)
}

@CasePathable
enum Inner: Equatable {
  case grandchild(Int)
  case other
}

@CasePathable
enum Outer: Equatable {
  case child(Inner)
  case nothing
}

struct Large: Equatable {
  var values = Array(repeating: 0, count: 3)
  var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10
  var k = 11, l = 12, m = 13, n = 14, o = 15, p = 16, q = 17, r = 18
  var name = "large"
}

@CasePathable
enum WithLarge: Equatable {
  case large(Large)
  case small(Int)
}

@CasePathable
enum Wrapper<Wrapped: Equatable & Sendable>: Equatable {
  case value(Wrapped)
  case nothing
}

struct Failure: Error, Equatable {
  let code: Int
}

@CasePathable
enum Existential {
  case failed(any Error)
  case value(any Sendable)
  case result(Result<Int, Failure>)
  case nothing
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

@Suite struct CaseAccessTests {
  @Test func aGeneratedCasePathSwitchesToTheTagOnceItHasSucceeded() {
    let access = CaseAccess(\Mixed.Cases.number)
    #expect(access.extract(from: .text("no")) == nil)
    #expect(!access.usesTag)
    #expect(access.extract(from: .number(3)) == 3)
    #expect(access.usesTag)
    expectAgreement(\.number, access, roots: mixedSamples, values: [0, -1, .max])
  }

  @Test func everyKindOfPayloadAgreesWithItsKeyPath() {
    let text = CaseAccess(\Mixed.Cases.text)
    _ = text.embed("learn")
    #expect(text.usesTag)
    expectAgreement(\.text, text, roots: mixedSamples, values: ["", "a longer string than fits"])

    let pair = CaseAccess(\Mixed.Cases.pair)
    _ = pair.extract(from: .pair(1, "one"))
    #expect(pair.usesTag)
    for root in mixedSamples {
      let expected = root[case: \.pair]
      let actual = pair.extract(from: root)
      #expect(actual?.0 == expected?.0 && actual?.1 == expected?.1)
    }
    #expect(pair.embed((2, "two")) == .pair(2, "two"))

    let labeled = CaseAccess(\Mixed.Cases.labeled)
    #expect(labeled.embed((id: 4, name: "four")) == .labeled(id: 4, name: "four"))
    #expect(labeled.usesTag)
    #expect(labeled.extract(from: .labeled(id: 5, name: "five"))?.name == "five")
    #expect(labeled.extract(from: .pair(5, "five")) == nil)
  }

  @Test func emptyCasesKeepTheKeyPath() {
    let access = CaseAccess(\Mixed.Cases.empty)
    #expect(access.extract(from: .empty) != nil)
    #expect(access.extract(from: .other) == nil)
    #expect(access.embed(()) == .empty)
    #expect(!access.usesTag)
  }

  @Test func indirectCasesKeepTheKeyPath() {
    let nested = CaseAccess(\Boxed.Cases.nested)
    #expect(nested.extract(from: .nested(.value(1))) == .value(1))
    #expect(!nested.usesTag)
    expectAgreement(
      \.nested, nested, roots: [.value(2), .nested(.nested(.value(3)))], values: [.value(4)])

    let value = CaseAccess(\Boxed.Cases.value)
    #expect(value.extract(from: .value(5)) == 5)
    #expect(value.usesTag)
    expectAgreement(\.value, value, roots: [.value(6), .nested(.value(6))], values: [7])

    let leaf = CaseAccess(\Tree.Cases.leaf)
    #expect(leaf.extract(from: .leaf(8)) == 8)
    #expect(!leaf.usesTag)
    expectAgreement(\.leaf, leaf, roots: [.leaf(9), .node(.leaf(1), .leaf(2))], values: [10])
  }

  @Test func aKeyPathThroughTwoCasesKeepsTheKeyPath() {
    // `Inner` is an `Int` with a spare tag byte, so `.child(.grandchild(5))` holds the bits of 5
    // where a one-case accessor would look: only the key path can tell `.child(.other)` apart.
    let access = CaseAccess(\Outer.Cases.child.grandchild)
    #expect(access.extract(from: .child(.grandchild(5))) == 5)
    #expect(!access.usesTag)
    #expect(access.extract(from: .child(.other)) == nil)
    #expect(access.extract(from: .nothing) == nil)
    #expect(access.embed(6) == .child(.grandchild(6)))
  }

  @Test func aHandWrittenCasePathKeepsItsOwnRules() {
    let access = CaseAccess(\Mixed.Cases.halved)
    #expect(access.extract(from: .number(6)) == 3)
    #expect(!access.usesTag)
    #expect(access.extract(from: .number(5)) == nil)
    #expect(access.embed(3) == .number(6))
  }

  @Test func largePayloadsAndGenericEnumsUseTheTag() {
    let large = CaseAccess(\WithLarge.Cases.large)
    var payload = Large()
    payload.name = String(repeating: "x", count: 100)
    #expect(large.embed(payload) == .large(payload))
    #expect(large.usesTag)
    expectAgreement(\.large, large, roots: [.large(Large()), .small(1)], values: [payload])

    let wrapped = CaseAccess(\Wrapper<String>.Cases.value)
    #expect(wrapped.extract(from: .value("a")) == "a")
    #expect(wrapped.usesTag)
    expectAgreement(\.value, wrapped, roots: [.value("b"), .nothing], values: ["c"])

    let some = CaseAccess(\Int?.Cases.some)
    #expect(some.extract(from: 1) == 1)
    #expect(some.usesTag)
    expectAgreement(\.some, some, roots: [nil, 2], values: [3])
  }

  @Test func existentialPayloadsMoveIntact() {
    let failed = CaseAccess(\Existential.Cases.failed)
    #expect(
      (failed.embed(Failure(code: 1)) as Existential)[case: \.failed] as? Failure == .init(code: 1))
    #expect(failed.usesTag)
    #expect(failed.extract(from: .failed(Failure(code: 2))) as? Failure == Failure(code: 2))
    #expect(failed.extract(from: .nothing) == nil)

    let value = CaseAccess(\Existential.Cases.value)
    let large: any Sendable = (1, 2, 3, 4, "a string that needs a box")
    // An existential's unused buffer words are not copied, so its bits do not read back equal:
    // this accessor keeps the key path, and must still agree with it.
    _ = value.embed(large)
    let extracted = value.extract(from: .value(large)) as? (Int, Int, Int, Int, String)
    #expect(extracted?.4 == "a string that needs a box")
    #expect(value.extract(from: .value(7)) as? Int == 7)
    #expect(value.extract(from: .failed(Failure(code: 3))) == nil)

    let result = CaseAccess(\Existential.Cases.result)
    #expect(result.extract(from: .result(.success(4))) == .success(4))
    #expect(result.usesTag)
    #expect(result.extract(from: .result(.failure(Failure(code: 5)))) == .failure(Failure(code: 5)))
    #expect(result.extract(from: .nothing) == nil)
  }

  @Test func theSelfKeyPathIsTheWholeValue() {
    let access = CaseAccess(\Mixed.Cases.self)
    for root in mixedSamples {
      #expect(access.extract(from: root) == root)
      #expect(access.embed(root) == root)
    }
  }

  @Test func movingPayloadsKeepsReferenceCountsRight() {
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
      #expect(access.usesTag)
      #expect(weakToken != nil)
    }
    #expect(weakToken == nil)
  }

  @Test func concurrentUseWhileLearningAgreesWithTheKeyPath() async {
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
    #expect(access.usesTag)
  }
}
