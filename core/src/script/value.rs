//! Plain data crossing the Rust/Lua boundary: event payloads, command requests, the per-layer
//! store. Conversions never depend on Lua's `pairs` order (principle §6): maps read from Lua are
//! sorted by key, lists are read by index.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A plain value: what events carry, what handlers may request and what the store may hold.
///
/// Lua has one number type, so a whole number read back from Lua is always an `Int` (a `Float`
/// such as `3.0` comes back as `Int(3)`), and an empty Lua table reads back as an empty `Map`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    #[default]
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Value>),
    Map(IndexMap<String, Value>),
}

impl Value {
    /// A map from `(key, value)` pairs, in the order given.
    pub fn map<K: Into<String>, V: Into<Value>>(pairs: impl IntoIterator<Item = (K, V)>) -> Value {
        Value::Map(pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }

    /// A list of values.
    pub fn list<V: Into<Value>>(items: impl IntoIterator<Item = V>) -> Value {
        Value::List(items.into_iter().map(Into::into).collect())
    }

    /// The field `key` of a map (`None` for anything else or a missing key).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.get(key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The Lua type name, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Self {
        Value::Int(i64::from(i))
    }
}
impl From<u32> for Value {
    fn from(i: u32) -> Self {
        Value::Int(i64::from(i))
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::Float(f)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_owned())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}
impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Value::List(v)
    }
}
impl From<IndexMap<String, Value>> for Value {
    fn from(m: IndexMap<String, Value>) -> Self {
        Value::Map(m)
    }
}

/// Lua's name for a value's type, except that Luau's integer-valued numbers are "number" too.
pub(crate) fn lua_type(v: &mlua::Value) -> &'static str {
    match v {
        mlua::Value::Integer(_) | mlua::Value::Number(_) => "number",
        other => other.type_name(),
    }
}

/// Tables nested deeper than this are rejected: plain data is shallow, and a cycle would
/// otherwise recurse forever.
const MAX_DEPTH: usize = 64;

/// Largest integer a Luau number (an f64) holds exactly.
const MAX_EXACT_INT: i64 = 1 << 53;

/// Why a value could not cross the boundary; `path` says where inside it (`store.captured[2]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ValueError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

fn verr(path: &str, message: impl Into<String>) -> ValueError {
    ValueError {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Builds a fresh Lua value from plain data. `Nil` inside a map leaves the key absent; `Nil`
/// inside a list is refused because a Lua sequence cannot hold holes.
pub(crate) fn to_lua(lua: &mlua::Lua, v: &Value, path: &str) -> Result<mlua::Value, ValueError> {
    to_lua_at(lua, v, &At::Root(path))
}

/// Where a value sits in what is handed to Lua (`payload.combatants[3].tags`), made into text
/// only when something fails: every event hands over hundreds of entries.
enum At<'a> {
    Root(&'a str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Root(s) => write!(f, "{s}"),
            At::Key(p, k) => write!(f, "{p}.{k}"),
            At::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// Lua strings made once and handed out again: making one is a protected call into Lua (a
/// memory limit is set), and payloads repeat the same field names, spaces, powers and steps
/// on every step of every battle. Short strings only, and only so many of them.
#[derive(Default)]
pub(crate) struct Strings(std::cell::RefCell<std::collections::HashMap<Box<str>, mlua::LuaString>>);

impl Strings {
    const LONGEST: usize = 48;
    const MOST: usize = 4096;

    pub(crate) fn get(&self, lua: &mlua::Lua, s: &str) -> mlua::Result<mlua::LuaString> {
        if let Some(l) = self.0.borrow().get(s) {
            return Ok(l.clone());
        }
        let l = lua.create_string(s)?;
        let mut cache = self.0.borrow_mut();
        if s.len() <= Self::LONGEST && cache.len() < Self::MOST {
            cache.insert(s.into(), l.clone());
        }
        Ok(l)
    }

    /// Lets go of every string (before the Lua state they belong to closes).
    pub(crate) fn clear(&self) {
        self.0.borrow_mut().clear();
    }
}

/// An event's payload as a Lua table, with its strings from `strings`. `make` builds the
/// table from `key, value, ...` in one call into Lua, where setting each field from Rust would
/// be a protected call of its own.
pub(crate) fn payload_to_lua(
    lua: &mlua::Lua,
    m: &IndexMap<String, Value>,
    strings: &Strings,
    make: &mlua::Function,
) -> Result<mlua::Table, ValueError> {
    let root = At::Root("payload");
    let mut args = Vec::with_capacity(2 * m.len());
    for (k, item) in m {
        if matches!(item, Value::Nil) {
            continue;
        }
        let at = At::Key(&root, k);
        let key = strings
            .get(lua, k)
            .map_err(|e| verr(&at.to_string(), e.to_string()))?;
        args.push(mlua::Value::String(key));
        args.push(to_lua_cached(lua, item, &at, Some(strings))?);
    }
    make.call(mlua::MultiValue::from_vec(args))
        .map_err(|e| verr("payload", e.to_string()))
}

fn to_lua_at(lua: &mlua::Lua, v: &Value, at: &At) -> Result<mlua::Value, ValueError> {
    to_lua_cached(lua, v, at, None)
}

/// One payload field's value as a Lua value, with its strings from `strings`.
pub(crate) fn field_to_lua(
    lua: &mlua::Lua,
    name: &str,
    v: &Value,
    strings: &Strings,
) -> Result<mlua::Value, ValueError> {
    let root = At::Root("payload");
    to_lua_cached(lua, v, &At::Key(&root, name), Some(strings))
}

fn to_lua_cached(
    lua: &mlua::Lua,
    v: &Value,
    at: &At,
    strings: Option<&Strings>,
) -> Result<mlua::Value, ValueError> {
    let lua_err = |e: mlua::Error| verr(&at.to_string(), e.to_string());
    Ok(match v {
        Value::Nil => mlua::Value::Nil,
        Value::Bool(b) => mlua::Value::Boolean(*b),
        // Luau numbers are f64: whole numbers are exact up to 2^53 and refused beyond.
        Value::Int(i) if i.unsigned_abs() <= MAX_EXACT_INT as u64 => mlua::Value::Number(*i as f64),
        Value::Int(i) => {
            return Err(verr(
                &at.to_string(),
                format!("integer {i} is too large for a Lua number"),
            ));
        }
        Value::Float(f) => mlua::Value::Number(*f),
        Value::Str(s) => mlua::Value::String(
            match strings {
                Some(cache) => cache.get(lua, s),
                None => lua.create_string(s),
            }
            .map_err(lua_err)?,
        ),
        Value::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0).map_err(lua_err)?;
            for (i, item) in items.iter().enumerate() {
                let p = At::Index(at, i + 1);
                if matches!(item, Value::Nil) {
                    return Err(verr(&p.to_string(), "a list cannot hold nil"));
                }
                t.raw_set(i + 1, to_lua_cached(lua, item, &p, strings)?)
                    .map_err(lua_err)?;
            }
            mlua::Value::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len()).map_err(lua_err)?;
            fill_cached(lua, &t, m, at, strings)?;
            mlua::Value::Table(t)
        }
    })
}

pub(crate) fn fill_table(
    lua: &mlua::Lua,
    t: &mlua::Table,
    m: &IndexMap<String, Value>,
    path: &str,
) -> Result<(), ValueError> {
    fill_at(lua, t, m, &At::Root(path))
}

fn fill_at(lua: &mlua::Lua, t: &mlua::Table, m: &IndexMap<String, Value>, at: &At) -> Result<(), ValueError> {
    fill_cached(lua, t, m, at, None)
}

fn fill_cached(
    lua: &mlua::Lua,
    t: &mlua::Table,
    m: &IndexMap<String, Value>,
    at: &At,
    strings: Option<&Strings>,
) -> Result<(), ValueError> {
    for (k, item) in m {
        if matches!(item, Value::Nil) {
            continue;
        }
        let p = At::Key(at, k);
        let lv = to_lua_cached(lua, item, &p, strings)?;
        let set = match strings {
            Some(cache) => cache.get(lua, k).and_then(|k| t.raw_set(k, lv)),
            None => t.raw_set(k.as_str(), lv),
        };
        set.map_err(|e| verr(&p.to_string(), e.to_string()))?;
    }
    Ok(())
}

/// Reads plain data out of Lua. Refuses functions, userdata, tables with metatables, mixed
/// tables and cycles, naming the path of the offending part.
pub(crate) fn from_lua(v: &mlua::Value, path: &str) -> Result<Value, ValueError> {
    from_lua_at(v, path, 0)
}

fn from_lua_at(v: &mlua::Value, path: &str, depth: usize) -> Result<Value, ValueError> {
    Ok(match v {
        mlua::Value::Nil => Value::Nil,
        mlua::Value::Boolean(b) => Value::Bool(*b),
        mlua::Value::Integer(i) => Value::Int(int(*i)),
        mlua::Value::Number(n) => number(*n),
        mlua::Value::String(s) => match s.to_str() {
            Ok(s) => Value::Str(s.to_owned()),
            Err(_) => return Err(verr(path, "strings must be valid UTF-8")),
        },
        mlua::Value::Table(t) => {
            if depth >= MAX_DEPTH {
                return Err(verr(
                    path,
                    format!("tables nested deeper than {MAX_DEPTH} (a cycle?)"),
                ));
            }
            if t.metatable().is_some() {
                return Err(verr(path, "a table with a metatable is not plain data"));
            }
            table(t, path, depth)?
        }
        other => {
            return Err(verr(path, format!("a {} is not plain data", lua_type(other))));
        }
    })
}

/// mlua's integer type is i64 on 64-bit targets but i32 on 32-bit ones.
#[allow(clippy::useless_conversion)]
pub(crate) fn int(i: mlua::Integer) -> i64 {
    i64::from(i)
}

fn number(n: f64) -> Value {
    let whole = n.fract() == 0.0 && n.abs() <= MAX_EXACT_INT as f64;
    // -0.0 stays a float so that it round-trips bit for bit.
    if whole && !(n == 0.0 && n.is_sign_negative()) {
        Value::Int(n as i64)
    } else {
        Value::Float(n)
    }
}

fn table(t: &mlua::Table, path: &str, depth: usize) -> Result<Value, ValueError> {
    let mut ints: Vec<(i64, mlua::Value)> = Vec::new();
    let mut strs: Vec<(String, mlua::Value)> = Vec::new();
    let mut bad_key: Option<String> = None;
    // `for_each` visits in `pairs` order; the order is discarded below (sorted), so it cannot
    // leak into the result.
    t.for_each::<mlua::Value, mlua::Value>(|k, v| {
        match &k {
            mlua::Value::Integer(i) => ints.push((int(*i), v)),
            mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() <= MAX_EXACT_INT as f64 => {
                ints.push((*n as i64, v))
            }
            mlua::Value::String(s) => match s.to_str() {
                Ok(s) => strs.push((s.to_owned(), v)),
                Err(_) => bad_key = Some("a key that is not valid UTF-8".into()),
            },
            other => bad_key = Some(format!("a {} key", lua_type(other))),
        }
        Ok(())
    })
    .map_err(|e| verr(path, e.to_string()))?;
    if let Some(k) = bad_key {
        return Err(verr(
            path,
            format!("{k} is not plain data (use string keys or a list)"),
        ));
    }
    if !ints.is_empty() && !strs.is_empty() {
        return Err(verr(path, "a table cannot mix list items and named keys"));
    }
    if !ints.is_empty() {
        ints.sort_by_key(|(i, _)| *i);
        let mut out = Vec::with_capacity(ints.len());
        for (pos, (i, v)) in ints.iter().enumerate() {
            if *i != pos as i64 + 1 {
                return Err(verr(path, "a list must have keys 1..n without holes"));
            }
            out.push(from_lua_at(v, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::List(out));
    }
    strs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = IndexMap::with_capacity(strs.len());
    for (k, v) in strs {
        let item = from_lua_at(&v, &format!("{path}.{k}"), depth + 1)?;
        out.insert(k, item);
    }
    Ok(Value::Map(out))
}
