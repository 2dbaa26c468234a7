//! Script failures as diagnostics: every error names the script file and line (principle §7)
//! and, when the file can be read, carries the source so miette can show the offending line.

use std::fmt;
use std::path::Path;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};

use super::event::EventKind;

/// What went wrong, coarsely; each kind has its own diagnostic code and advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScriptErrorKind {
    /// The script does not parse.
    Syntax,
    /// The script raised an error (including `error(...)`, indexing nil, stack overflow).
    Runtime,
    /// A call ran past its step or time budget (a runaway loop or recursion).
    Budget,
    /// The Lua state ran out of its memory allowance.
    Memory,
    /// The script reached for something the sandbox does not offer (io, os, files, an unknown
    /// global, a `require` outside the allowed folders).
    Forbidden,
    /// A handler returned something outside the return protocol, or vetoed an event that
    /// cannot be vetoed.
    BadReturn,
    /// Misuse of the registration API: unknown event, duplicate or missing handler id, bad
    /// options.
    Registration,
    /// A value that is not plain data crossed the boundary (store, request, payload).
    Data,
    /// A script file could not be read.
    Io,
}

impl ScriptErrorKind {
    fn code(self) -> &'static str {
        match self {
            ScriptErrorKind::Syntax => "warroom::script::syntax",
            ScriptErrorKind::Runtime => "warroom::script::runtime",
            ScriptErrorKind::Budget => "warroom::script::budget",
            ScriptErrorKind::Memory => "warroom::script::memory",
            ScriptErrorKind::Forbidden => "warroom::script::forbidden",
            ScriptErrorKind::BadReturn => "warroom::script::bad_return",
            ScriptErrorKind::Registration => "warroom::script::registration",
            ScriptErrorKind::Data => "warroom::script::data",
            ScriptErrorKind::Io => "warroom::script::io",
        }
    }

    fn help(self) -> &'static str {
        match self {
            ScriptErrorKind::Syntax => "fix the Lua syntax at the marked line",
            ScriptErrorKind::Runtime => "the script raised an error at the marked line",
            ScriptErrorKind::Budget => {
                "a handler may run a limited number of loop iterations and calls; look for a loop \
                 that never ends or unbounded recursion"
            }
            ScriptErrorKind::Memory => {
                "scripts share a fixed memory allowance; look for a table that grows without bound"
            }
            ScriptErrorKind::Forbidden => {
                "rule scripts run in a sandbox without io, os, load, files or the debug library; \
                 see docs/events.md for what is available"
            }
            ScriptErrorKind::BadReturn => {
                "a handler returns nothing, \"continue\", \"handled\" or { veto = \"reason\" } \
                 (veto only on validate_*, before_* and `command` events)"
            }
            ScriptErrorKind::Registration => "see docs/events.md for the event catalogue and warroom.on",
            ScriptErrorKind::Data => {
                "only plain data (nil, booleans, numbers, strings, lists and string-keyed tables) \
                 can be stored or requested"
            }
            ScriptErrorKind::Io => "check that the layer's layer.toml names files that exist",
        }
    }
}

/// A script failure with its location and context.
#[derive(Debug, Clone)]
pub struct ScriptError {
    pub kind: ScriptErrorKind,
    /// The message without the `file:line:` prefix.
    pub message: String,
    /// The script, relative to the display root (`editions/x/rules.lua`).
    pub file: Option<String>,
    pub line: Option<u32>,
    /// The event being dispatched, if any.
    pub event: Option<EventKind>,
    /// The id of the handler that failed, if any.
    pub handler: Option<String>,
    /// Lua's stack traceback, when there was one.
    pub traceback: Option<String>,
    /// Boxed: errors travel in `Result`s and should stay small.
    snippet: Option<Box<Snippet>>,
}

#[derive(Debug, Clone)]
struct Snippet {
    code: NamedSource<String>,
    span: Option<SourceSpan>,
}

impl ScriptError {
    pub(crate) fn new(kind: ScriptErrorKind, message: impl Into<String>) -> ScriptError {
        ScriptError {
            kind,
            message: message.into(),
            file: None,
            line: None,
            event: None,
            handler: None,
            traceback: None,
            snippet: None,
        }
    }

    pub(crate) fn at(mut self, file: impl Into<String>, line: Option<u32>) -> ScriptError {
        self.file = Some(file.into());
        self.line = line;
        self
    }

    pub(crate) fn during(mut self, event: EventKind, handler: Option<&str>) -> ScriptError {
        self.event = Some(event);
        self.handler = handler.map(str::to_owned);
        self
    }

    /// Reads the script so miette can show the failing line. Best effort: an unreadable file
    /// only loses the snippet, never the error.
    pub(crate) fn with_source_file(mut self, path: &Path) -> ScriptError {
        let (Some(file), Ok(text)) = (&self.file, std::fs::read_to_string(path)) else {
            return self;
        };
        let span = self.line.and_then(|line| line_span(&text, line));
        let code = NamedSource::new(file.clone(), text).with_language("lua");
        self.snippet = Some(Box::new(Snippet { code, span }));
        self
    }

    /// `file:line` when both are known (what tests and the REPL match on).
    pub fn location(&self) -> Option<String> {
        match (&self.file, self.line) {
            (Some(f), Some(l)) => Some(format!("{f}:{l}")),
            (Some(f), None) => Some(f.clone()),
            _ => None,
        }
    }
}

/// Byte span of the 1-based `line` in `text`, without its newline.
fn line_span(text: &str, line: u32) -> Option<SourceSpan> {
    let mut start = 0usize;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n + 1 == line as usize {
            let len = l.trim_end_matches(['\n', '\r']).len();
            return Some(SourceSpan::new(start.into(), len));
        }
        start += l.len();
    }
    None
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location() {
            write!(f, "{loc}: ")?;
        }
        f.write_str(&self.message)?;
        match (&self.handler, self.event) {
            (Some(h), Some(e)) => write!(f, " (in handler '{h}' for event '{e}')"),
            (None, Some(e)) => write!(f, " (while dispatching event '{e}')"),
            (Some(h), None) => write!(f, " (in handler '{h}')"),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for ScriptError {}

impl Diagnostic for ScriptError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.help()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.snippet.as_ref().map(|s| &s.code as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.snippet.as_ref()?.span?;
        let label = LabeledSpan::new_with_span(Some(self.message.clone()), span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// An error raised by the host's own Rust callbacks (require, warroom.on, ...), carrying its
/// kind through Lua so the host can classify it when it comes back out. The message already
/// starts with `file:line:` of the calling script.
#[derive(Debug)]
pub(crate) struct Raised {
    pub kind: ScriptErrorKind,
    pub message: String,
}

impl fmt::Display for Raised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Raised {}

/// Finds the first `NAME:LINE` in `text` for one of the known chunk names. Returns the name,
/// the line, and the byte range of `NAME:LINE:` plus a following space when `text` starts with
/// it (so the caller can strip it from the message).
pub(crate) fn find_location<'a>(
    text: &str,
    known: impl Iterator<Item = &'a str>,
) -> Option<(String, u32, usize)> {
    let mut best: Option<(usize, String, u32, usize)> = None;
    for name in known {
        let mut from = 0;
        while let Some(pos) = text[from..].find(name) {
            let at = from + pos;
            from = at + name.len();
            let rest = &text[from..];
            let Some(rest) = rest.strip_prefix(':') else {
                continue;
            };
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let Ok(line) = digits.parse::<u32>() else {
                continue;
            };
            let mut end = from + 1 + digits.len();
            if text[end..].starts_with(": ") {
                end += 2;
            } else if text[end..].starts_with(':') {
                end += 1;
            }
            if best.as_ref().is_none_or(|b| at < b.0) {
                best = Some((at, name.to_owned(), line, if at == 0 { end } else { 0 }));
            }
            break;
        }
    }
    best.map(|(_, name, line, strip)| (name, line, strip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_and_strips_a_leading_location() {
        let known = ["editions/a/rules.lua", "scripts/util.lua"];
        let (f, l, strip) = find_location("editions/a/rules.lua:12: boom", known.iter().copied()).unwrap();
        assert_eq!((f.as_str(), l), ("editions/a/rules.lua", 12));
        assert_eq!(&"editions/a/rules.lua:12: boom"[strip..], "boom");
        let (f, l, strip) = find_location("boom\n\tscripts/util.lua:3: in f", known.iter().copied()).unwrap();
        assert_eq!((f.as_str(), l, strip), ("scripts/util.lua", 3, 0));
        assert!(find_location("no location", known.iter().copied()).is_none());
    }

    #[test]
    fn line_span_covers_the_line_only() {
        let text = "a = 1\nbb = 2\n";
        let span = line_span(text, 2).unwrap();
        assert_eq!((span.offset(), span.len()), (6, 6));
        assert!(line_span(text, 9).is_none());
    }
}
