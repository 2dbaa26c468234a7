//! A tiny TOML writer for converter output.
//!
//! Hand-rolled rather than `toml::to_string` so that the converter controls the order of tables
//! and keys (sea zones in numeric order, `ipc` before `adjacent`, one table per space), which
//! keeps the generated files readable and diffable.

use std::cmp::Ordering;
use std::fmt::Write as _;

/// A value the converter emits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum V {
    Str(String),
    Int(i64),
    Bool(bool),
    Strs(Vec<String>),
    Inline(Vec<(String, V)>),
    /// An array of inline tables.
    Tables(Vec<Vec<(String, V)>>),
}

/// A TOML document built table by table, in the order the caller wants.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    out: String,
}

impl Doc {
    pub(crate) fn new() -> Self {
        Doc::default()
    }

    pub(crate) fn comment(&mut self, text: &str) {
        for line in text.lines() {
            if line.is_empty() {
                self.out.push_str("#\n");
            } else {
                let _ = writeln!(self.out, "# {line}");
            }
        }
    }

    /// Starts `[seg1.seg2...]`. Segments are quoted unless they are plain identifiers; names of
    /// spaces and powers should be passed through [`Seg::Name`] so they are always quoted,
    /// which reads uniformly whether or not the name contains a space.
    pub(crate) fn table(&mut self, path: &[Seg<'_>]) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out.push('[');
        for (i, seg) in path.iter().enumerate() {
            if i > 0 {
                self.out.push('.');
            }
            match seg {
                Seg::Key(k) => self.out.push_str(&key(k)),
                Seg::Name(n) => self.out.push_str(&quoted(n)),
            }
        }
        self.out.push_str("]\n");
    }

    pub(crate) fn kv(&mut self, k: &str, v: &V) {
        let _ = writeln!(self.out, "{} = {}", key(k), value(v));
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

pub(crate) enum Seg<'a> {
    Key(&'a str),
    Name(&'a str),
}

fn is_bare(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

pub(crate) fn key(k: &str) -> String {
    if is_bare(k) {
        k.to_string()
    } else {
        quoted(k)
    }
}

pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(crate) fn value(v: &V) -> String {
    match v {
        V::Str(s) => quoted(s),
        V::Int(i) => i.to_string(),
        V::Bool(b) => b.to_string(),
        V::Strs(items) => {
            let parts: Vec<String> = items.iter().map(|s| quoted(s)).collect();
            format!("[{}]", parts.join(", "))
        }
        V::Inline(fields) => {
            if fields.is_empty() {
                return "{}".to_string();
            }
            let parts: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), value(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        V::Tables(tables) => {
            let parts: Vec<String> = tables.iter().map(|t| value(&V::Inline(t.clone()))).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// Orders names so that embedded numbers compare by value ("SZ 2" before "SZ 10").
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (ka, kb) = (natural_key(a), natural_key(b));
    ka.cmp(&kb).then_with(|| a.cmp(b))
}

#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Chunk {
    Num(u64, usize),
    Text(String),
}

fn natural_key(s: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut digits = String::new();
            while let Some(&d) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                digits.push(d);
                chars.next();
            }
            // Overlong digit runs fall back to text order rather than overflowing.
            match digits.parse::<u64>() {
                Ok(n) => out.push(Chunk::Num(n, digits.len())),
                Err(_) => out.push(Chunk::Text(digits)),
            }
        } else {
            let mut text = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() {
                    break;
                }
                text.push(d);
                chars.next();
            }
            out.push(Chunk::Text(text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_puts_small_numbers_first() {
        let mut v = vec!["SZ 10", "SZ 2", "Alaska", "SZ 1"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["Alaska", "SZ 1", "SZ 2", "SZ 10"]);
    }

    #[test]
    fn keys_are_quoted_when_needed() {
        assert_eq!(key("infantry"), "infantry");
        assert_eq!(key("Soviet Union"), "\"Soviet Union\"");
        assert_eq!(key("a\"b"), "\"a\\\"b\"");
        assert_eq!(key(""), "\"\"");
    }

    #[test]
    fn output_parses_back() {
        let mut d = Doc::new();
        d.table(&[Seg::Key("territories"), Seg::Name("Karelia S.S.R.")]);
        d.kv("ipc", &V::Int(2));
        d.kv("adjacent", &V::Strs(vec!["SZ 1".into(), "Weird \"name\"".into()]));
        d.kv("standing_army", &V::Inline(vec![("infantry".into(), V::Int(2))]));
        let text = d.finish();
        let parsed: toml::Table = toml::from_str(&text).expect("valid toml");
        let t = &parsed["territories"]["Karelia S.S.R."];
        assert_eq!(t["ipc"].as_integer(), Some(2));
        assert_eq!(t["adjacent"][1].as_str(), Some("Weird \"name\""));
        assert_eq!(t["standing_army"]["infantry"].as_integer(), Some(2));
    }
}
