//! The merged data tree: TOML values that remember where they came from.
//!
//! Layers are merged at this level (tables deep-merge, scalars and arrays replace, `append`,
//! `add` and `remove` sections patch explicitly) before anything is typed, so one set of merge
//! rules serves every section of every edition, and every value keeps its provenance.

use crate::diag::{FileId, Label, Problem, Problems, Sources};
use indexmap::IndexMap;
use std::ops::Range;
use std::sync::Arc;

/// Where a value was written: layer, file and byte span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub layer: Arc<str>,
    pub file: FileId,
    pub span: Range<usize>,
}

impl Origin {
    pub fn label(&self, sources: &Sources, text: impl Into<String>) -> Label {
        Label::new(sources, self.file, self.span.clone(), text)
    }
}

#[derive(Clone, Debug)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Node>),
    Table(Table),
}

/// A value with its origin and the origins of the values it replaced (oldest first).
#[derive(Clone, Debug)]
pub struct Node {
    pub value: Value,
    pub origin: Origin,
    pub replaced: Vec<Origin>,
}

#[derive(Clone, Debug)]
pub struct Entry {
    /// Where the key itself was written (for "unknown field" diagnostics).
    pub key: Origin,
    pub node: Node,
}

#[derive(Clone, Debug, Default)]
pub struct Table {
    pub entries: IndexMap<String, Entry>,
}

impl Table {
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.get(key).map(|e| &e.node)
    }
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "string",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Bool(_) => "boolean",
            Value::Array(_) => "array",
            Value::Table(_) => "table",
        }
    }
}

impl Node {
    pub fn new(value: Value, origin: Origin) -> Self {
        Node {
            value,
            origin,
            replaced: Vec::new(),
        }
    }

    pub fn as_table(&self) -> Option<&Table> {
        match &self.value {
            Value::Table(t) => Some(t),
            _ => None,
        }
    }

    /// Follow a path of table keys.
    pub fn lookup(&self, path: &[&str]) -> Option<&Node> {
        let mut node = self;
        for key in path {
            node = node.as_table()?.get(key)?;
        }
        Some(node)
    }

    /// A short rendering of the value for messages and `why`.
    pub fn render(&self) -> String {
        match &self.value {
            Value::Str(s) => format!("{s:?}"),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Array(a) => format!("[{}]", a.iter().map(Node::render).collect::<Vec<_>>().join(", ")),
            Value::Table(t) => format!("{{ {} keys }}", t.entries.len()),
        }
    }
}

/// Parse one TOML file into a tree. `file` must already be registered in `sources`. A
/// syntax error leaves no tree; an integer too large for the engine is a problem at its
/// place, and the tree keeps it as written (a string), which nothing reads as a number.
pub fn parse_file(
    sources: &Sources,
    file: FileId,
    layer: &Arc<str>,
    problems: &mut Problems,
) -> Option<Node> {
    let text = sources.get(file).text.clone();
    if let Some(at) = too_deep(&text, MAX_DEPTH) {
        problems.push(
            Problem::new(
                "toml::too-deep",
                format!("the data nests more than {MAX_DEPTH} levels deep"),
            )
            .at(Label::new(sources, file, at, "this is too deep"))
            .help("each part of a dotted key, each table and each array is a level"),
        );
        return None;
    }
    let parsed = match toml::de::DeTable::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            problems.push(
                Problem::new("toml::syntax", format!("invalid TOML: {}", e.message().trim()))
                    .at(Label::new(sources, file, span, "here")),
            );
            return None;
        }
    };
    let span = parsed.span();
    let mut c = Convert {
        sources,
        file,
        layer,
        problems,
    };
    Some(c.table(parsed.into_inner(), span))
}

/// How deep data may nest. The files of an edition go a handful of levels deep; the parser
/// and every walk over the tree recurse, and dotted keys within inline tables can nest
/// thousands of levels in a few kilobytes, which would overflow the stack.
pub const MAX_DEPTH: usize = 64;

/// Where a TOML text first nests deeper than `limit` levels, if it does: each part of a
/// dotted key (in a header or before `=`), each inline table and each array is a level. Read
/// before parsing, so it follows the grammar loosely; text it misreads is a syntax error the
/// parser then reports.
pub fn too_deep(text: &str, limit: usize) -> Option<Range<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        Array,
        Table,
    }
    let b = text.as_bytes();
    // The depth of the table the next top-level key belongs to (the last header's).
    let mut header = 0usize;
    // Open arrays and inline tables of the value being read, with their depths.
    let mut stack: Vec<(Open, usize)> = Vec::new();
    // Reading a key (at a line start, or after `{` or `,` in an inline table), its parts so
    // far and where it started; else reading a value at `depth`.
    let (mut in_key, mut parts, mut key_start) = (true, 0usize, 0usize);
    let mut depth = 0usize;
    let mut i = 0;
    let end_of = |i: usize, n: usize| (i + n).min(b.len());
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let triple = b[i..].starts_with(if c == b'"' { b"\"\"\"" } else { b"'''" });
                let start = i;
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if c == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if b[i] == c && (!triple || b[i..].starts_with(&[c, c, c])) {
                        i += if triple { 3 } else { 1 };
                        break;
                    }
                    if !triple && b[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                if in_key {
                    if parts == 0 {
                        key_start = start;
                    }
                    parts += 1;
                }
                continue;
            }
            b'[' if in_key && stack.is_empty() && parts == 0 => {
                // A table header: its key's parts are its depth.
                let start = i;
                i += 1;
                let mut n = 1;
                while i < b.len() && b[i] != b'\n' && b[i] != b']' {
                    if b[i] == b'.' {
                        n += 1;
                    }
                    if b[i] == b'"' || b[i] == b'\'' {
                        let q = b[i];
                        i += 1;
                        while i < b.len() && b[i] != q && b[i] != b'\n' {
                            i += if b[i] == b'\\' && q == b'"' { 2 } else { 1 };
                        }
                    }
                    i += 1;
                }
                header = n;
                if header > limit {
                    return Some(start..end_of(i, 1));
                }
                continue;
            }
            b'\n' if stack.is_empty() => {
                (in_key, parts) = (true, 0);
            }
            b'.' if in_key => {}
            b'=' if in_key => {
                let base = match stack.last() {
                    Some((Open::Table, d)) => *d,
                    _ => header,
                };
                depth = base + parts.max(1);
                if depth > limit {
                    return Some(key_start..end_of(i, 1));
                }
                (in_key, parts) = (false, 0);
            }
            b'{' | b'[' if !in_key => {
                let open = if c == b'{' { Open::Table } else { Open::Array };
                stack.push((open, depth));
                if open == Open::Table {
                    (in_key, parts) = (true, 0);
                } else {
                    depth += 1;
                    if depth > limit {
                        return Some(i..end_of(i, 1));
                    }
                }
            }
            b',' if !stack.is_empty() => match stack.last() {
                Some((Open::Table, _)) => (in_key, parts) = (true, 0),
                Some((Open::Array, d)) => {
                    in_key = false;
                    depth = d + 1;
                }
                None => {}
            },
            b'}' | b']' if !stack.is_empty() => {
                stack.pop();
                in_key = false;
                if let Some((Open::Array, d)) = stack.last() {
                    depth = d + 1;
                }
            }
            c if in_key && !c.is_ascii_whitespace() => {
                // A bare key: a part starts at each character after a dot or a space.
                let starts = i == 0 || matches!(b[i - 1], b'.' | b' ' | b'\t' | b'\n' | b'\r' | b'{' | b',');
                if starts {
                    if parts == 0 {
                        key_start = i;
                    }
                    parts += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

struct Convert<'a> {
    sources: &'a Sources,
    file: FileId,
    layer: &'a Arc<str>,
    problems: &'a mut Problems,
}

impl Convert<'_> {
    fn origin(&self, span: Range<usize>) -> Origin {
        Origin {
            layer: self.layer.clone(),
            file: self.file,
            span,
        }
    }

    fn table(&mut self, t: toml::de::DeTable<'_>, span: Range<usize>) -> Node {
        let mut table = Table::default();
        for (k, v) in t {
            let key = self.origin(k.span());
            let node = self.value(v);
            table
                .entries
                .insert(k.into_inner().into_owned(), Entry { key, node });
        }
        Node::new(Value::Table(table), self.origin(span))
    }

    fn value(&mut self, v: toml::Spanned<toml::de::DeValue<'_>>) -> Node {
        use toml::de::DeValue;
        let span = v.span();
        let value = match v.into_inner() {
            DeValue::String(s) => Value::Str(s.into_owned()),
            DeValue::Integer(i) => match i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()) {
                Ok(n) => Value::Int(n),
                Err(_) => {
                    self.problems.push(
                        Problem::new(
                            "toml::integer-range",
                            format!("the integer {} is out of range", i.as_str()),
                        )
                        .at(Label::new(self.sources, self.file, span.clone(), "too large"))
                        .help(format!(
                            "integers go from {} to {}",
                            i64::MIN,
                            i64::MAX
                        )),
                    );
                    Value::Str(i.as_str().to_string())
                }
            },
            DeValue::Float(f) => Value::Float(f.as_str().replace('_', "").parse().unwrap_or(f64::NAN)),
            DeValue::Boolean(b) => Value::Bool(b),
            DeValue::Datetime(d) => Value::Str(d.to_string()),
            DeValue::Array(a) => Value::Array(a.into_iter().map(|e| self.value(e)).collect()),
            DeValue::Table(t) => return self.table(t, span),
        };
        Node::new(value, self.origin(span))
    }
}

/// Merges layer files into one tree, collecting every problem.
pub struct Merger<'a> {
    pub sources: &'a Sources,
    pub problems: &'a mut Problems,
}

impl Merger<'_> {
    /// Apply one file (already parsed) onto `root`: its `remove` section, then its plain data,
    /// then its `append` section, then its `add` section.
    pub fn apply_file(&mut self, root: &mut Node, file: Node) {
        let Value::Table(mut t) = file.value else {
            return;
        };
        let remove = t.entries.shift_remove("remove");
        let append = t.entries.shift_remove("append");
        let add = t.entries.shift_remove("add");
        if let Some(r) = remove {
            self.apply_remove(root, &r.node, &mut Vec::new());
        }
        self.merge_table(root, t);
        if let Some(a) = append {
            self.apply_append(root, &a.node, &mut Vec::new());
        }
        if let Some(a) = add {
            self.apply_add(root, &a.node, &mut Vec::new());
        }
    }

    fn merge_table(&mut self, dst: &mut Node, src: Table) {
        let Value::Table(dt) = &mut dst.value else {
            return;
        };
        for (k, e) in src.entries {
            match dt.entries.get_mut(&k) {
                Some(existing) => {
                    if matches!(existing.node.value, Value::Table(_)) {
                        if let Value::Table(st) = e.node.value {
                            self.merge_table(&mut existing.node, st);
                            continue;
                        }
                        let p = Problem::new(
                            "layer::type-mismatch",
                            format!(
                                "`{k}` is a table here but this patch gives a {}",
                                e.node.value.type_name()
                            ),
                        )
                        .at(e
                            .node
                            .origin
                            .label(self.sources, "replaces a table with a plain value"))
                        .also(
                            existing
                                .node
                                .origin
                                .label(self.sources, "the table is defined here"),
                        )
                        .help("patch individual fields inside the table, or remove it first with [remove]");
                        self.problems.push(p);
                        continue;
                    }
                    let mut replaced = std::mem::take(&mut existing.node.replaced);
                    replaced.push(existing.node.origin.clone());
                    existing.node = e.node;
                    existing.node.replaced = replaced;
                }
                None => {
                    dt.entries.insert(k, e);
                }
            }
        }
    }

    fn apply_remove(&mut self, dst: &mut Node, patch: &Node, path: &mut Vec<String>) {
        let Some(pt) = patch.as_table() else {
            self.problems.push(
                Problem::new(
                    "layer::bad-remove",
                    "a [remove] section must be a table mirroring the data",
                )
                .at(patch.origin.label(self.sources, "expected a table")),
            );
            return;
        };
        for (k, e) in &pt.entries {
            path.push(k.clone());
            let target = child_mut(dst, k);
            let Some(target) = target else {
                self.problems.push(
                    Problem::new(
                        "layer::remove-absent",
                        format!("cannot remove from `{}`: it does not exist", path.join(".")),
                    )
                    .at(e.key.label(self.sources, "nothing to remove here"))
                    .help("removal is explicit and must name something an earlier layer defined"),
                );
                path.pop();
                continue;
            };
            match &e.node.value {
                Value::Table(_) => self.apply_remove(target, &e.node, path),
                Value::Array(items) => {
                    for item in items {
                        let Value::Str(name) = &item.value else {
                            self.problems.push(
                                Problem::new("layer::bad-remove", "removal lists must contain strings")
                                    .at(item.origin.label(self.sources, "expected a string")),
                            );
                            continue;
                        };
                        let removed = match &mut target.value {
                            Value::Table(t) => t.entries.shift_remove(name).is_some(),
                            Value::Array(a) => {
                                let before = a.len();
                                a.retain(|n| !matches!(&n.value, Value::Str(s) if s == name));
                                a.len() != before
                            }
                            _ => false,
                        };
                        if !removed {
                            let mut p = Problem::new(
                                "layer::remove-absent",
                                format!(
                                    "cannot remove `{name}` from `{}`: it is not there",
                                    path.join(".")
                                ),
                            )
                            .at(item.origin.label(self.sources, "not present"))
                            .also(target.origin.label(self.sources, "the target is defined here"));
                            if let Some(s) = closest_key(name, keys_of(target)) {
                                p = p.help(format!("did you mean `{s}`?"));
                            }
                            self.problems.push(p);
                        }
                    }
                }
                _ => self.problems.push(
                    Problem::new("layer::bad-remove", "a removal leaf must be an array of names")
                        .at(e.node.origin.label(self.sources, "expected an array of strings")),
                ),
            }
            path.pop();
        }
    }

    fn apply_append(&mut self, dst: &mut Node, patch: &Node, path: &mut Vec<String>) {
        let Some(pt) = patch.as_table() else {
            return;
        };
        for (k, e) in &pt.entries {
            path.push(k.clone());
            let target = child_mut(dst, k);
            let Some(target) = target else {
                let mut p = Problem::new(
                    "layer::append-absent",
                    format!("cannot append to `{}`: it does not exist", path.join(".")),
                )
                .at(e.key.label(self.sources, "nothing to append to"));
                if let Some(s) = closest_key(k, keys_of(dst)) {
                    p = p.help(format!("did you mean `{s}`?"));
                }
                self.problems.push(p);
                path.pop();
                continue;
            };
            match (&mut target.value, &e.node.value) {
                (Value::Table(_), Value::Table(_)) => self.apply_append(target, &e.node, path),
                (Value::Array(a), Value::Array(items)) => a.extend(items.iter().cloned()),
                (t, _) => self.problems.push(
                    Problem::new(
                        "layer::bad-append",
                        format!(
                            "cannot append to `{}`: it is a {}, not an array",
                            path.join("."),
                            t.type_name()
                        ),
                    )
                    .at(e.node.origin.label(self.sources, "append needs an array here"))
                    .also(target.origin.label(self.sources, "the target is defined here")),
                ),
            }
            path.pop();
        }
    }

    /// `[add.PATH]`: each number is added to the number an earlier layer set at its path (a
    /// house rule's bid on top of a scenario's starting IPCs). The sum keeps the patch as its
    /// origin and the earlier value among those it replaced, as a replacement would.
    fn apply_add(&mut self, dst: &mut Node, patch: &Node, path: &mut Vec<String>) {
        let Some(pt) = patch.as_table() else {
            self.problems.push(
                Problem::new(
                    "layer::bad-add",
                    "an [add] section must be a table mirroring the data",
                )
                .at(patch.origin.label(self.sources, "expected a table")),
            );
            return;
        };
        for (k, e) in &pt.entries {
            path.push(k.clone());
            let Some(target) = child_mut(dst, k) else {
                let mut p = Problem::new(
                    "layer::add-absent",
                    format!("cannot add to `{}`: it does not exist", path.join(".")),
                )
                .at(e.key.label(self.sources, "nothing to add to"))
                .help(
                    "[add] changes a number an earlier layer set; to set a new value, write it as plain data",
                );
                if let Some(s) = closest_key(k, keys_of(dst)) {
                    p = p.help(format!("did you mean `{s}`?"));
                }
                self.problems.push(p);
                path.pop();
                continue;
            };
            let sum = match (&target.value, &e.node.value) {
                (Value::Table(_), Value::Table(_)) => {
                    self.apply_add(target, &e.node, path);
                    path.pop();
                    continue;
                }
                (Value::Int(a), Value::Int(b)) => a
                    .checked_add(*b)
                    .map(Value::Int)
                    .ok_or_else(|| format!("adding {b} to `{}` ({a}) overflows", path.join("."))),
                (Value::Float(a), Value::Int(b)) => Ok(Value::Float(a + *b as f64)),
                (Value::Float(a), Value::Float(b)) => Ok(Value::Float(a + b)),
                (Value::Int(_), Value::Float(_)) => Err(format!(
                    "cannot add a float to `{}`: it is an integer",
                    path.join(".")
                )),
                (Value::Int(_) | Value::Float(_), v) => Err(format!(
                    "[add] takes numbers, not a {} (at `{}`)",
                    v.type_name(),
                    path.join(".")
                )),
                (t, _) => Err(format!(
                    "cannot add to `{}`: it is a {}, not a number",
                    path.join("."),
                    t.type_name()
                )),
            };
            match sum {
                Ok(v) => {
                    let old = std::mem::replace(&mut target.origin, e.node.origin.clone());
                    target.replaced.push(old);
                    target.value = v;
                }
                Err(msg) => self.problems.push(
                    Problem::new("layer::bad-add", msg)
                        .at(e.node.origin.label(self.sources, "add needs a number here"))
                        .also(target.origin.label(self.sources, "the target is defined here")),
                ),
            }
            path.pop();
        }
    }
}

fn child_mut<'a>(n: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    match &mut n.value {
        Value::Table(t) => t.entries.get_mut(key).map(|e| &mut e.node),
        _ => None,
    }
}

fn keys_of(n: &Node) -> Vec<&str> {
    match &n.value {
        Value::Table(t) => t.entries.keys().map(String::as_str).collect(),
        Value::Array(a) => a
            .iter()
            .filter_map(|n| match &n.value {
                Value::Str(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The candidate closest to `name` by edit distance, if it is plausibly a typo.
pub fn closest_key<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lname = name.to_lowercase();
    let len = lname.chars().count();
    candidates
        .into_iter()
        .filter_map(|c| {
            let most = 2.max(c.len() / 3);
            // Lengths further apart than a typo's distance cannot be one; checking first keeps
            // a megabyte of typed text from costing a megabyte-by-name table per candidate.
            let lc = c.to_lowercase();
            if len.abs_diff(lc.chars().count()) > most {
                return None;
            }
            let d = edit_distance(&lname, &lc);
            (d <= most).then_some((d, c))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    // Insertions, deletions, substitutions and swaps of two neighbouring letters (`gfit` is
    // one typo from `gift`, not two), each counting one.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                cur[j + 1] = cur[j + 1].min(before[j - 1] + 1);
            }
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}
