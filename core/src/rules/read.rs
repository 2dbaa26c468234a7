//! Typed reading of tree tables with located errors.
//!
//! Each section of the schema is read field by field through [`Fields`]; a field of the wrong
//! type and a field nobody read (a typo, a field of another edition) both become problems that
//! point at the exact key, with the closest known field as a suggestion. A `Fields` reads one
//! table of the schema catalogue ([`schema`](super::schema)) and nothing else.

use super::schema::{self, check};
use crate::diag::{Problem, Problems, Sources};
use crate::tree::{closest_key, Node, Table, Value};

pub struct Ctx<'a> {
    pub sources: &'a Sources,
    pub problems: Problems,
    /// The merged tree being read, when there is one: a missing field of a new entry then
    /// names the existing entry the author probably meant to change.
    pub tree: Option<&'a Node>,
}

impl Ctx<'_> {
    pub fn type_error(&mut self, node: &Node, what: &str, expected: &str) {
        let p = Problem::new(
            "schema::wrong-type",
            format!("`{what}` must be {expected}, found a {}", node.value.type_name()),
        )
        .at(node.origin.label(self.sources, format!("expected {expected}")));
        self.problems.push(p);
    }

    pub fn error_at(&mut self, node: &Node, code: &'static str, msg: String, label: &str) -> &mut Problem {
        let p = Problem::new(code, msg).at(node.origin.label(self.sources, label));
        self.problems.push(p);
        self.problems.0.last_mut().expect("just pushed")
    }
}

/// A table being read; remembers which keys were consumed.
pub struct Fields<'n> {
    pub node: &'n Node,
    pub table: &'n Table,
    pub path: String,
    /// The catalogue's description of this table: the only keys it may be asked for.
    pub schema: &'static schema::Table,
    used: Vec<&'n str>,
}

impl<'n> Fields<'n> {
    /// `node` read as the catalogued table `schema`; `path` is the table's place in the file,
    /// for messages (`units.infantry`).
    pub fn of(ctx: &mut Ctx, node: &'n Node, path: &str, schema: &'static schema::Table) -> Option<Self> {
        check::registered(schema);
        match &node.value {
            Value::Table(t) => Some(Fields {
                node,
                table: t,
                path: path.to_string(),
                schema,
                used: Vec::new(),
            }),
            _ => {
                ctx.type_error(node, path, "a table");
                None
            }
        }
    }

    /// A table whose keys are names (`[units]`, `ipcs = { Red = 30 }`): every key is read.
    pub fn names_of(ctx: &mut Ctx, node: &'n Node, path: &str) -> Option<Self> {
        let mut f = Self::of(ctx, node, path, &schema::NAMES)?;
        f.used = f.table.entries.keys().map(String::as_str).collect();
        Some(f)
    }

    fn what(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    pub fn get(&mut self, key: &'n str) -> Option<&'n Node> {
        schema::note_read(self.schema, key);
        let n = self.table.get(key)?;
        self.used.push(key);
        Some(n)
    }

    pub fn required(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<&'n Node> {
        let n = self.get(key);
        if n.is_none() {
            let what = self.what(key);
            let near = self.near_entry(ctx);
            let p = ctx.error_at(
                self.node,
                "schema::missing-field",
                format!("`{what}` is required"),
                &format!("this table has no `{key}`"),
            );
            if let Some((parent, entry, near)) = near {
                p.help = Some(format!(
                    "`[{parent}.{entry}]` makes a new entry, which needs `{key}`; to change the existing `{near}`, write `[{parent}.{near}]`"
                ));
            }
        }
        n
    }

    /// For a table that is an entry of a keyed table (`units.<id>`): the parent's path, this
    /// entry's key and the closest other key, if one is close.
    fn near_entry(&self, ctx: &Ctx) -> Option<(String, String, String)> {
        let (parent, entry) = self.path.rsplit_once('.')?;
        let path: Vec<&str> = parent.split('.').collect();
        let siblings = ctx.tree?.lookup(&path)?.as_table()?;
        let near = closest_key(
            entry,
            siblings
                .entries
                .keys()
                .map(String::as_str)
                .filter(|k| *k != entry),
        )?;
        Some((parent.to_string(), entry.to_string(), near.to_string()))
    }

    pub fn str(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<String> {
        let n = self.get(key)?;
        as_str(ctx, n, &self.what(key))
    }

    pub fn req_str(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<String> {
        check::required(self.schema, key);
        let n = self.required(ctx, key)?;
        as_str(ctx, n, &self.what(key))
    }

    pub fn int(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<i64> {
        let n = self.get(key)?;
        as_int(ctx, n, &self.what(key))
    }

    pub fn req_int(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<i64> {
        check::required(self.schema, key);
        let n = self.required(ctx, key)?;
        as_int(ctx, n, &self.what(key))
    }

    /// A count or value from 0 to [`MAX_COUNT`](super::MAX_COUNT).
    pub fn uint(&mut self, ctx: &mut Ctx, key: &'n str, default: u32) -> u32 {
        if cfg!(debug_assertions) {
            check::default(self.schema, key, &default.to_string());
        }
        let Some(n) = self.get(key) else {
            return default;
        };
        as_uint(ctx, n, &self.what(key)).unwrap_or(default)
    }

    pub fn req_uint(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<u32> {
        check::required(self.schema, key);
        let n = self.required(ctx, key)?;
        as_uint(ctx, n, &self.what(key))
    }

    pub fn opt_uint(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<u32> {
        let n = self.get(key)?;
        as_uint(ctx, n, &self.what(key))
    }

    pub fn bool(&mut self, ctx: &mut Ctx, key: &'n str, default: bool) -> bool {
        if cfg!(debug_assertions) {
            check::default(self.schema, key, &default.to_string());
        }
        let Some(n) = self.get(key) else {
            return default;
        };
        match n.value {
            Value::Bool(b) => b,
            _ => {
                ctx.type_error(n, &self.what(key), "true or false");
                default
            }
        }
    }

    pub fn str_list(&mut self, ctx: &mut Ctx, key: &'n str) -> Vec<(String, &'n Node)> {
        let Some(n) = self.get(key) else {
            return Vec::new();
        };
        str_list(ctx, n, &self.what(key))
    }

    /// The sub-table `key`, read as the catalogued table `schema`.
    pub fn table(
        &mut self,
        ctx: &mut Ctx,
        key: &'n str,
        schema: &'static schema::Table,
    ) -> Option<Fields<'n>> {
        let n = self.get(key)?;
        let what = self.what(key);
        Fields::of(ctx, n, &what, schema)
    }

    /// The sub-table `key`, whose keys are names ([`names_of`](Self::names_of)).
    pub fn names(&mut self, ctx: &mut Ctx, key: &'n str) -> Option<Fields<'n>> {
        let n = self.get(key)?;
        let what = self.what(key);
        Fields::names_of(ctx, n, &what)
    }

    /// One of a fixed set of words.
    pub fn choice<T: Copy>(&mut self, ctx: &mut Ctx, key: &'n str, options: &[(&str, T)]) -> Option<T> {
        if cfg!(debug_assertions) {
            let words: Vec<&str> = options.iter().map(|(w, _)| *w).collect();
            check::choices(self.schema, key, &words);
        }
        let n = self.get(key)?;
        let s = as_str(ctx, n, &self.what(key))?;
        match options.iter().find(|(name, _)| *name == s) {
            Some((_, v)) => Some(*v),
            None => {
                let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
                let what = self.what(key);
                let p = ctx.error_at(
                    n,
                    "schema::bad-value",
                    format!("`{what}` cannot be {s:?}"),
                    "not one of the allowed values",
                );
                p.help = Some(format!("allowed: {}", names.join(", ")));
                None
            }
        }
    }

    /// Like [`choice`](Self::choice), and a located problem when the field is absent.
    pub fn req_choice<T: Copy>(&mut self, ctx: &mut Ctx, key: &'n str, options: &[(&str, T)]) -> Option<T> {
        check::required(self.schema, key);
        if self.table.get(key).is_none() {
            self.required(ctx, key);
            return None;
        }
        self.choice(ctx, key, options)
    }

    /// Report every key nobody read, suggesting the closest of the table's catalogued fields
    /// (all of them, not just the ones this table happened to use).
    pub fn finish(self, ctx: &mut Ctx) {
        let all_fields: Vec<&str> = self.schema.keys().collect();
        for (k, e) in &self.table.entries {
            if !self.used.contains(&k.as_str()) {
                let what = self.what(k);
                let mut p = Problem::new("schema::unknown-field", format!("unknown field `{what}`"))
                    .at(e.key.label(ctx.sources, "not a field of this table"));
                if let Some(s) = closest_key(k, all_fields.iter().copied()) {
                    p = p.help(format!("did you mean `{s}`?"));
                }
                ctx.problems.push(p);
            }
        }
    }
}

pub fn as_str(ctx: &mut Ctx, n: &Node, what: &str) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        _ => {
            ctx.type_error(n, what, "a string");
            None
        }
    }
}

pub fn as_int(ctx: &mut Ctx, n: &Node, what: &str) -> Option<i64> {
    match n.value {
        Value::Int(i) => Some(i),
        _ => {
            ctx.type_error(n, what, "an integer");
            None
        }
    }
}

/// A count or value from 0 to [`MAX_COUNT`](super::MAX_COUNT).
pub fn as_uint(ctx: &mut Ctx, n: &Node, what: &str) -> Option<u32> {
    as_int_in(ctx, n, what, 0..=i64::from(super::MAX_COUNT)).map(|i| i as u32)
}

/// IPCs in hand, from -[`MAX_IPCS`](super::MAX_IPCS) to [`MAX_IPCS`](super::MAX_IPCS).
pub fn as_ipcs(ctx: &mut Ctx, n: &Node, what: &str) -> Option<i64> {
    as_int_in(ctx, n, what, -super::MAX_IPCS..=super::MAX_IPCS)
}

/// An integer within `range`; outside it, a problem at the value.
pub fn as_int_in(ctx: &mut Ctx, n: &Node, what: &str, range: std::ops::RangeInclusive<i64>) -> Option<i64> {
    let i = as_int(ctx, n, what)?;
    if range.contains(&i) {
        return Some(i);
    }
    ctx.error_at(
        n,
        "schema::bad-value",
        format!(
            "`{what}` must be from {} to {}, found {i}",
            range.start(),
            range.end()
        ),
        "out of range",
    );
    None
}

pub fn str_list<'n>(ctx: &mut Ctx, n: &'n Node, what: &str) -> Vec<(String, &'n Node)> {
    match &n.value {
        Value::Array(items) => items
            .iter()
            .filter_map(|i| as_str(ctx, i, what).map(|s| (s, i)))
            .collect(),
        _ => {
            ctx.type_error(n, what, "an array of strings");
            Vec::new()
        }
    }
}
