import Testing

@testable import TerminalUI

struct TextTests {
  @Test func controlCharactersAreShownNotObeyed() {
    #expect(TerminalText.sanitized("\u{1B}[2J\u{1B}[Hgotcha") == "\\e[2J\\e[Hgotcha")
    #expect(TerminalText.sanitized("first\nsecond\r\nthird") == "first⏎second⏎third")
    #expect(TerminalText.sanitized("a\tb\u{07}c\u{7F}") == "a⇥b^Gc^?")
    #expect(TerminalText.sanitized("\u{9B}31m") == "\\u{9B}31m")
    #expect(TerminalText.sanitized("\u{202E}evil\u{200B}") == "\\u{202E}evil\\u{200B}")
    // A mark with nothing to combine with sits on a dotted circle, not on what came before.
    #expect(TerminalText.sanitized("\u{301}x") == "◌\u{301}x")
    // A spacing mark takes its own column, as terminals draw it, and is left as it is.
    #expect(TerminalText.sanitized("\u{1068} x") == "\u{1068} x")
  }

  @Test func textThatNeedsNothingIsUnchanged() {
    for text in ["plain", "café", "日本語", "👨‍👩‍👧 family", "e\u{301}", "🇬🇧"] {
      #expect(TerminalText.sanitized(text) == text)
    }
  }

  @Test func widthsAreTerminalColumns() {
    #expect(TerminalText.columns("abc") == 3)
    #expect(TerminalText.columns("日本語") == 6)
    #expect(TerminalText.columns("🐉") == 2)
    #expect(TerminalText.columns("e\u{301}") == 1)
    #expect(TerminalText.columns("👨‍👩‍👧") == 2)
    #expect(TerminalText.columns("❤\u{FE0F}") == 2)
    #expect(TerminalText.columns("🇬🇧") == 2)
    #expect(TerminalText.columns("ｱ") == 1)
    #expect(TerminalText.columns("Ａ") == 2)
    // Escaped, a control takes the columns its escape shows.
    #expect(TerminalText.columns("\u{1B}") == 2)
  }

  @Test func truncationCountsColumnsAndKeepsWideCharacters() {
    #expect(TerminalText.truncated("日本語のタスク", to: 7) == "日本語…")
    #expect(TerminalText.truncated("日本語", to: 6) == "日本語")
    #expect(TerminalText.truncated("ab🐉cd", to: 4) == "ab…")
    #expect(TerminalText.truncated("abc", to: 0) == "")
    #expect(TerminalText.padded("日本", to: 6) == "日本  ")
    for width in 1...12 {
      let cut = TerminalText.truncated("李小龍 🐉 and\tfriends\n", to: width)
      #expect(TerminalText.columns(cut) <= width)
    }
  }

  @Test func wrappingBreaksAtSpacesByColumns() {
    #expect(
      TerminalText.wrapped("the quick brown fox jumps", to: 10) == [
        "the quick", "brown fox", "jumps",
      ])
    #expect(TerminalText.wrapped("abcdefghijkl", to: 5) == ["abcde", "fghij", "kl"])
    #expect(TerminalText.wrapped("日本語のタスク", to: 5) == ["日本", "語の", "タス", "ク"])
    #expect(TerminalText.wrapped("one\ntwo", to: 10) == ["one", "two"])
    #expect(TerminalText.wrapped("", to: 10) == [""])
    // One column cannot hold a wide character: it is cut, not allowed to spill.
    #expect(TerminalText.wrapped("a日b", to: 1) == ["a", "…", "b"])
  }

  @Test func aScreenRowNeverSpillsOverItsWidth() {
    var screen = Screen(width: 12, height: 2)
    screen.put("日本語のタスク\u{1B}[2J", row: 0, style: .inverse)
    #expect(screen.lines[0] == "日本語のタ…")
    // Padded by columns: the reversed bar ends at the screen's edge, not past it.
    #expect(screen.ansi(color: true).contains("\u{1B}[7m日本語のタ… \u{1B}[0m"))
    #expect(TerminalText.columns(screen.lines[0]) <= 12)
  }

  @Test func aBoxTallerThanTheScreenIsCutAndLeavesTheLastRow() {
    var screen = Screen(width: 30, height: 8)
    screen.put("help line", row: 7)
    screen.box((1...20).map { "line \($0)" }, title: "Keys")
    #expect(screen.lines[0].contains("┌─Keys"))
    #expect(screen.lines[5].contains("│ …"))
    #expect(screen.lines[6].contains("└"))
    #expect(screen.lines[7] == "help line")
  }

  @Test func anItemIsMarkedWhetherOrNotColourIsOn() {
    #expect(Line.item("row", selected: true) == Line("› row", .inverse))
    #expect(Line.item("row", selected: false) == Line("  row", nil))
  }
}
