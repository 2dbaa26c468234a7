//! The Lua host: sandboxed scripts, named chunks, the event catalogue.
//!
//! One [`ScriptHost`] owns one Luau state per rule set. Layers load their scripts in order
//! ([`ScriptHost::load_layer`]); scripts register handlers with `warroom.on`; the engine fires
//! events with [`ScriptHost::dispatch`] and gets back a typed [`Dispatch`]: continue, handled or
//! veto, plus any commands the handlers requested. Scripts never change game state themselves.
//!
//! Architecture invariant: scripts are untrusted (principle §7). Everything they can reach is
//! allow-listed in [`ScriptHost::new`]; every call into Lua runs under a step budget and the
//! state's memory cap; every error names the script file and line.
//!
//! Architecture invariant: dispatching an event kind nobody handles makes no Lua call and no
//! allocation (principle §4) — handlers are indexed by kind.
//!
//! The prose reference for script authors is docs/events.md.

pub mod api;
mod error;
mod event;
mod payload;
mod value;
mod view;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use indexmap::IndexMap;
use mlua::{Lua, LuaOptions, StdLib, VmState};

pub use error::{ScriptError, ScriptErrorKind};
pub use event::{
    Dispatch, Eager, Event, EventKind, FieldType, HandlerResult, LazyFields, LogLine, Outcome, PayloadField,
    Request,
};
pub use value::Value;
pub use view::GameView;

use error::{find_location, Raised};

/// Resource limits for one script host.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptLimits {
    /// Cap on all memory of the Lua state (all layers together).
    pub memory_bytes: usize,
    /// Steps one handler call (or one script's top level) may take. A step is one Luau
    /// interrupt: a loop iteration (back-edge), a function call or a return. Deterministic, so
    /// the same game stops at the same point on every machine.
    pub steps_per_call: u64,
    /// Wall-clock backstop per call, checked every few hundred steps. Only a safety net: the
    /// step budget is what a well-behaved rule runs into, since wall-clock time differs by machine.
    pub time_per_call: Duration,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            memory_bytes: 64 << 20,
            // About 0.1 s of a tight loop on a slow machine; a rule that needs more is doing
            // what should be data or engine code.
            steps_per_call: 5_000_000,
            time_per_call: Duration::from_secs(2),
        }
    }
}

/// Raised when a script reads a global that does not exist, so a typo or a reach for `io` fails
/// at the line that made it instead of later as "attempt to index nil".
const UNKNOWN_GLOBAL_LUA: &str = r#"
return function(_, key)
    error("unknown global '" .. tostring(key) .. "': rule scripts run in a sandbox without io, "
        .. "os, load, files or debug (declare your own variables with `local`)", 2)
end
"#;

const UNKNOWN_GLOBAL_MARK: &str = "unknown global '";

/// Step and time accounting for the call in progress.
struct Budget {
    steps: Cell<u64>,
    limit: Cell<u64>,
    time: Cell<Duration>,
    started: Cell<Instant>,
    /// Once a call is over budget every later interrupt fails too, so `pcall` cannot swallow
    /// the error and keep going.
    tripped: Cell<bool>,
    /// Only script calls are budgeted; mlua's own helper code running between calls is not.
    armed: Cell<bool>,
}

impl Budget {
    /// Starts the budget of one call.
    fn arm(&self) {
        self.steps.set(0);
        self.tripped.set(false);
        self.started.set(Instant::now());
        self.armed.set(true);
    }

    /// Ends the call; `tripped` stays readable until the next `arm`.
    fn disarm(&self) {
        self.armed.set(false);
    }
}

/// Payload field → the values it may have for the handler to run.
type Filter = Vec<(String, Vec<Value>)>;

/// A registered handler.
struct Handler {
    id: String,
    kind: EventKind,
    priority: i64,
    layer: usize,
    seq: u64,
    filter: Filter,
    func: mlua::Function,
    /// Where it was registered (or last replaced), for errors about it.
    file: String,
    line: Option<u32>,
}

impl Handler {
    /// `field` gives the payload's fields, lazy ones included.
    fn matches<'v>(&self, field: impl Fn(&str) -> Option<&'v Value>) -> bool {
        self.filter
            .iter()
            .all(|(name, allowed)| field(name).is_some_and(|v| allowed.contains(v)))
    }
}

/// A handler to run in one dispatch: what `calls_for` copies out of the registry, so that
/// handlers may use the registry (`warroom.log`) while they run.
struct Call {
    id: String,
    func: mlua::Function,
    file: String,
    line: Option<u32>,
}

/// Description of a registered handler, for tools (`why`, listings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerInfo {
    pub id: String,
    pub layer: String,
    pub priority: i64,
    pub file: String,
    pub line: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Loading,
    Dispatching,
}

enum Module {
    Loading,
    Loaded(mlua::Value),
}

struct Layer {
    name: String,
    dir: PathBuf,
    shared_dir: PathBuf,
    display_root: PathBuf,
    env: mlua::Table,
    store: mlua::Table,
}

/// State shared between the host and the Rust callbacks it gives Lua. Holds every Lua handle
/// the host keeps, so dropping the host can release them before the Lua state closes.
struct Registry {
    phase: Phase,
    layers: Vec<Layer>,
    handlers: Vec<Handler>,
    /// Per event kind, indices into `handlers` in dispatch order.
    by_kind: [Vec<usize>; EventKind::COUNT],
    next_seq: u64,
    /// Display name of every chunk loaded → its file, for locating errors and showing source.
    sources: BTreeMap<String, PathBuf>,
    modules: HashMap<(usize, PathBuf), Module>,
    log: Vec<LogLine>,
    current: Option<String>,
}

impl Registry {
    fn reindex(&mut self) {
        for list in &mut self.by_kind {
            list.clear();
        }
        for (i, h) in self.handlers.iter().enumerate() {
            self.by_kind[h.kind.index()].push(i);
        }
        let handlers = &self.handlers;
        for list in &mut self.by_kind {
            // Higher priority first, then earlier layer, then earlier registration.
            list.sort_by_key(|&i| {
                let h = &handlers[i];
                (std::cmp::Reverse(h.priority), h.layer, h.seq)
            });
        }
    }
}

/// The Lua host for one rule set. See the module docs and docs/events.md.
pub struct ScriptHost {
    lua: Lua,
    reg: Rc<RefCell<Registry>>,
    budget: Rc<Budget>,
    limits: ScriptLimits,
    base: mlua::Table,
    /// Hands payloads to handlers (`payload`).
    runner: payload::Runner,
    /// Lua strings payloads repeat.
    strings: value::Strings,
    /// The last payload made into a Lua table, and that table (`template`).
    template: Option<(IndexMap<String, Value>, mlua::Table)>,
    /// The stores as of the last successful load or dispatch: what a failed or vetoed dispatch
    /// rolls back to and what [`ScriptHost::store_snapshot`] returns.
    last_good_store: IndexMap<String, Value>,
}

impl Drop for ScriptHost {
    fn drop(&mut self) {
        // Callbacks inside Lua hold the registry; empty it of Lua handles while the state is
        // still open so nothing is released into a closing state.
        self.strings.clear();
        self.template = None;
        if let Ok(mut reg) = self.reg.try_borrow_mut() {
            reg.handlers.clear();
            reg.modules.clear();
            reg.layers.clear();
        }
    }
}

/// Makes an error raised by a host callback, prefixed with the calling script's `file:line`.
pub(crate) fn raise(lua: &Lua, kind: ScriptErrorKind, message: impl Into<String>) -> mlua::Error {
    let message = message.into();
    let loc = caller_location(lua, 1);
    mlua::Error::external(Raised {
        kind,
        message: format!("{loc}{message}"),
    })
}

/// `file:line: ` of the Lua function at stack `level` (0 = running function), or "".
fn caller_location(lua: &Lua, level: usize) -> String {
    lua.inspect_stack(level, |d| {
        let src = d.source().short_src.map(|s| s.into_owned());
        match (src, d.current_line()) {
            (Some(src), Some(line)) => format!("{src}:{line}: "),
            _ => String::new(),
        }
    })
    .unwrap_or_default()
}

fn lua_err(e: mlua::Error) -> ScriptError {
    ScriptError::new(ScriptErrorKind::Runtime, format!("script host: {e}"))
}

impl ScriptHost {
    /// A host with an empty, sandboxed Luau state.
    pub fn new(limits: ScriptLimits) -> Result<ScriptHost, ScriptError> {
        let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8;
        let lua = Lua::new_with(libs, LuaOptions::new()).map_err(lua_err)?;
        // Read-only libraries and builtin metatables: one layer cannot patch `string` under
        // another.
        lua.sandbox(true).map_err(lua_err)?;
        let base = Self::base_env(&lua).map_err(lua_err)?;
        let slot = view::register_game(&lua).map_err(lua_err)?;
        let runner = payload::Runner::new(&lua, slot).map_err(lua_err)?;

        let budget = Rc::new(Budget {
            steps: Cell::new(0),
            limit: Cell::new(limits.steps_per_call),
            time: Cell::new(limits.time_per_call),
            started: Cell::new(Instant::now()),
            tripped: Cell::new(false),
            armed: Cell::new(false),
        });
        let b = budget.clone();
        lua.set_interrupt(move |lua| {
            if !b.armed.get() {
                return Ok(VmState::Continue);
            }
            let steps = b.steps.get().saturating_add(1);
            b.steps.set(steps);
            let over_steps = steps > b.limit.get();
            // Reading the clock costs more than a step; check it now and then.
            let over_time = steps.is_multiple_of(256) && b.started.get().elapsed() > b.time.get();
            if b.tripped.get() || over_steps || over_time {
                b.tripped.set(true);
                let loc = caller_location(lua, 0);
                let what = if over_time {
                    format!("the time budget of {:?}", b.time.get())
                } else {
                    format!(
                        "the budget of {} steps (loop iterations and calls)",
                        b.limit.get()
                    )
                };
                return Err(mlua::Error::RuntimeError(format!(
                    "{loc}runaway script: exceeded {what} for one call"
                )));
            }
            Ok(VmState::Continue)
        });
        lua.set_memory_limit(limits.memory_bytes).map_err(lua_err)?;

        let reg = Registry {
            phase: Phase::Idle,
            layers: Vec::new(),
            handlers: Vec::new(),
            by_kind: Default::default(),
            next_seq: 0,
            sources: BTreeMap::new(),
            modules: HashMap::new(),
            log: Vec::new(),
            current: None,
        };
        Ok(ScriptHost {
            lua,
            reg: Rc::new(RefCell::new(reg)),
            budget,
            limits,
            base,
            runner,
            strings: value::Strings::default(),
            template: None,
            last_good_store: IndexMap::new(),
        })
    }

    /// The read-only table every layer environment falls back to: the allow-listed builtins and
    /// a `math` without randomness. Reading anything else raises "unknown global".
    fn base_env(lua: &Lua) -> mlua::Result<mlua::Table> {
        let globals = lua.globals();
        let base = lua.create_table()?;
        for g in api::BUILTINS {
            let v: mlua::Value = globals.get(g.name)?;
            if !v.is_nil() {
                base.raw_set(g.name, v)?;
            }
        }
        for lib in api::LIBRARIES {
            let table: mlua::Table = globals.get(lib.name)?;
            if lib.name == "math" {
                // Only the catalogued members: no `random`, no `randomseed` (principle §6).
                let safe = lua.create_table()?;
                for m in lib.members {
                    safe.raw_set(*m, table.raw_get::<mlua::Value>(*m)?)?;
                }
                safe.set_readonly(true);
                base.raw_set(lib.name, safe)?;
            } else {
                base.raw_set(lib.name, table)?;
            }
        }

        let unknown: mlua::Function = lua.load(UNKNOWN_GLOBAL_LUA).set_name("=warroom sandbox").eval()?;
        let mt = lua.create_table()?;
        mt.raw_set("__index", unknown)?;
        mt.raw_set("__metatable", "locked")?;
        base.set_metatable(Some(mt))?;
        base.set_readonly(true);
        Ok(base)
    }

    pub fn limits(&self) -> &ScriptLimits {
        &self.limits
    }

    /// Loads one layer's scripts, in order. Chunks are named after their path relative to
    /// `display_root` (`editions/x/rules.lua`), which is how errors name them.
    /// `require` inside them resolves in `layer_dir` and then `shared_scripts_dir` only.
    ///
    /// A host whose load failed should be dropped: handlers registered before the failure stay.
    pub fn load_layer(
        &mut self,
        layer_name: &str,
        layer_dir: &Path,
        display_root: &Path,
        scripts: &[String],
        shared_scripts_dir: &Path,
    ) -> Result<(), ScriptError> {
        if self.reg.borrow().layers.iter().any(|l| l.name == layer_name) {
            return Err(ScriptError::new(
                ScriptErrorKind::Registration,
                format!("layer '{layer_name}' is already loaded"),
            ));
        }
        let index = self.reg.borrow().layers.len();
        let (env, store) = self.layer_env(index, layer_name).map_err(lua_err)?;
        self.reg.borrow_mut().layers.push(Layer {
            name: layer_name.to_owned(),
            dir: layer_dir.to_owned(),
            shared_dir: shared_scripts_dir.to_owned(),
            display_root: display_root.to_owned(),
            env: env.clone(),
            store,
        });

        self.reg.borrow_mut().phase = Phase::Loading;
        let result = scripts
            .iter()
            .try_for_each(|script| self.load_script(index, script, &env));
        {
            let mut reg = self.reg.borrow_mut();
            reg.phase = Phase::Idle;
            reg.current = None;
        }
        result?;
        let store = self.read_store(index, None)?;
        self.last_good_store.insert(layer_name.to_owned(), store);
        Ok(())
    }

    fn load_script(&self, layer: usize, script: &str, env: &mlua::Table) -> Result<(), ScriptError> {
        let (dir, root) = {
            let reg = self.reg.borrow();
            (
                reg.layers[layer].dir.clone(),
                reg.layers[layer].display_root.clone(),
            )
        };
        let path = dir.join(script);
        let display = display_name(&root, &path);
        if !is_plain_relative(Path::new(script)) {
            return Err(ScriptError::new(
                ScriptErrorKind::Forbidden,
                format!("script '{script}' must be a path inside the layer folder"),
            )
            .at(display, None));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| {
            ScriptError::new(ScriptErrorKind::Io, format!("cannot read script: {e}"))
                .at(display.clone(), None)
        })?;
        self.reg.borrow_mut().sources.insert(display.clone(), path);
        self.budget.arm();
        let chunk = self
            .lua
            .load(text)
            .set_name(format!("@{display}"))
            .set_environment(env.clone())
            .set_mode(mlua::chunk::ChunkMode::Text);
        chunk
            .exec()
            .map_err(|e| self.convert(e, None, None, Some((display.as_str(), None))))
    }

    /// Builds a layer's environment: its own globals, falling back to the shared read-only
    /// builtins, plus `warroom`, `require` and `print` bound to this layer.
    fn layer_env(&self, layer: usize, name: &str) -> mlua::Result<(mlua::Table, mlua::Table)> {
        let lua = &self.lua;
        let env = lua.create_table()?;
        let mt = lua.create_table()?;
        mt.raw_set("__index", self.base.clone())?;
        mt.raw_set("__metatable", "locked")?;
        env.set_metatable(Some(mt))?;

        let store = lua.create_table()?;
        let warroom = lua.create_table()?;
        let log = self.fn_log(layer)?;
        // Exactly the catalogued members (api::WARROOM, which docs/api.md shows).
        for m in api::WARROOM {
            let value = match m.name {
                "on" => mlua::Value::Function(self.fn_on(layer)?),
                "remove_handler" => mlua::Value::Function(self.fn_remove(layer)?),
                "replace_handler" => mlua::Value::Function(self.fn_replace(layer)?),
                "log" => mlua::Value::Function(log.clone()),
                "store" => mlua::Value::Table(store.clone()),
                "layer" => mlua::Value::String(lua.create_string(name)?),
                "events" => {
                    let events = lua.create_table()?;
                    for (i, k) in EventKind::ALL.iter().enumerate() {
                        events.raw_set(i + 1, k.name())?;
                    }
                    events.set_readonly(true);
                    mlua::Value::Table(events)
                }
                other => unreachable!("warroom.{other} is catalogued (script::api) but not made"),
            };
            warroom.raw_set(m.name, value)?;
        }
        // Read-only so `warroom.store = {}` cannot detach the table the host saves.
        warroom.set_readonly(true);

        for g in api::LAYER_GLOBALS {
            let value = match g.name {
                "warroom" => mlua::Value::Table(warroom.clone()),
                "print" => mlua::Value::Function(log.clone()),
                "require" => mlua::Value::Function(self.fn_require(layer)?),
                other => unreachable!("the global {other} is catalogued (script::api) but not made"),
            };
            env.raw_set(g.name, value)?;
        }
        Ok((env, store))
    }

    fn fn_on(&self, layer: usize) -> mlua::Result<mlua::Function> {
        let reg = self.reg.clone();
        self.lua.create_function(
            move |lua, (event, opts, func): (mlua::Value, mlua::Value, mlua::Value)| {
                use ScriptErrorKind::Registration as R;
                if reg.borrow().phase != Phase::Loading {
                    return Err(raise(lua, R, "warroom.on can only be called while scripts load"));
                }
                let name = match &event {
                    mlua::Value::String(s) => s.to_string_lossy(),
                    other => {
                        return Err(raise(
                            lua,
                            R,
                            format!("warroom.on: the event name must be a string, got a {}", value::lua_type(other)),
                        ))
                    }
                };
                let Some(kind) = EventKind::from_name(&name) else {
                    let known: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
                    return Err(raise(
                        lua,
                        R,
                        format!(
                            "unknown event '{name}'{}; known events: {}",
                            did_you_mean(&name, known.iter().copied()),
                            known.join(", ")
                        ),
                    ));
                };
                let mlua::Value::Table(opts) = opts else {
                    return Err(raise(
                        lua,
                        R,
                        "warroom.on(event, { id = \"layer.rule\", priority = 0, filter = {...} }, function(ev, game) ... end): the options table is missing",
                    ));
                };
                let mlua::Value::Function(func) = func else {
                    return Err(raise(lua, R, "warroom.on: the third argument must be the handler function"));
                };
                let (id, priority, filter) =
                    parse_options(&opts, kind).map_err(|m| raise(lua, R, m))?;
                let (file, line) = split_location(&caller_location(lua, 1));
                let mut reg = reg.borrow_mut();
                if let Some(old) = reg.handlers.iter().find(|h| h.id == id) {
                    let at = fmt_loc(&old.file, old.line);
                    return Err(raise(
                        lua,
                        R,
                        format!("duplicate handler id '{id}' (already registered at {at}); use warroom.replace_handler to replace it"),
                    ));
                }
                let seq = reg.next_seq;
                reg.next_seq += 1;
                reg.handlers.push(Handler { id, kind, priority, layer, seq, filter, func, file, line });
                reg.reindex();
                Ok(())
            },
        )
    }

    fn fn_remove(&self, _layer: usize) -> mlua::Result<mlua::Function> {
        let reg = self.reg.clone();
        self.lua.create_function(move |lua, id: mlua::Value| {
            use ScriptErrorKind::Registration as R;
            let id = handler_id_arg(lua, "warroom.remove_handler", &id)?;
            let mut reg = reg.borrow_mut();
            if reg.phase != Phase::Loading {
                return Err(raise(lua, R, "warroom.remove_handler can only be called while scripts load"));
            }
            let Some(pos) = reg.handlers.iter().position(|h| h.id == id) else {
                return Err(raise(
                    lua,
                    R,
                    format!("warroom.remove_handler: no handler with id '{id}' (removing a handler that does not exist is an error; check the id and the layer order)"),
                ));
            };
            reg.handlers.remove(pos);
            reg.reindex();
            Ok(())
        })
    }

    fn fn_replace(&self, _layer: usize) -> mlua::Result<mlua::Function> {
        let reg = self.reg.clone();
        self.lua
            .create_function(move |lua, (id, func): (mlua::Value, mlua::Value)| {
                use ScriptErrorKind::Registration as R;
                let id = handler_id_arg(lua, "warroom.replace_handler", &id)?;
                let mlua::Value::Function(func) = func else {
                    return Err(raise(
                        lua,
                        R,
                        "warroom.replace_handler: the second argument must be a function",
                    ));
                };
                let (file, line) = split_location(&caller_location(lua, 1));
                let mut reg = reg.borrow_mut();
                if reg.phase != Phase::Loading {
                    return Err(raise(
                        lua,
                        R,
                        "warroom.replace_handler can only be called while scripts load",
                    ));
                }
                let Some(h) = reg.handlers.iter_mut().find(|h| h.id == id) else {
                    return Err(raise(
                        lua,
                        R,
                        format!("warroom.replace_handler: no handler with id '{id}' to replace"),
                    ));
                };
                // Keeps its place in the order (priority, layer, registration); only the code and
                // the location errors point at change.
                h.func = func;
                h.file = file;
                h.line = line;
                Ok(())
            })
    }

    fn fn_log(&self, layer: usize) -> mlua::Result<mlua::Function> {
        let reg = self.reg.clone();
        self.lua
            .create_function(move |_, args: mlua::Variadic<mlua::Value>| {
                // Formats values without addresses (a table prints as "table") so logs are the
                // same on every run.
                let parts: Vec<String> = args
                    .iter()
                    .map(|v| match v {
                        mlua::Value::Nil => "nil".to_owned(),
                        mlua::Value::Boolean(b) => b.to_string(),
                        mlua::Value::Integer(i) => i.to_string(),
                        mlua::Value::Number(n) => n.to_string(),
                        mlua::Value::String(s) => s.to_string_lossy(),
                        other => value::lua_type(other).to_owned(),
                    })
                    .collect();
                let mut reg = reg.borrow_mut();
                let line = LogLine {
                    layer: reg.layers.get(layer).map(|l| l.name.clone()).unwrap_or_default(),
                    handler: reg.current.clone(),
                    message: parts.join(" "),
                };
                reg.log.push(line);
                Ok(())
            })
    }

    fn fn_require(&self, layer: usize) -> mlua::Result<mlua::Function> {
        let reg = self.reg.clone();
        self.lua.create_function(move |lua, name: mlua::Value| {
            use ScriptErrorKind::Forbidden as F;
            let name = match &name {
                mlua::Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(raise(lua, F, format!("require expects a module name, got a {}", value::lua_type(other))))
                }
            };
            let (env, dir, shared, root) = {
                let r = reg.borrow();
                if r.phase != Phase::Loading {
                    return Err(raise(lua, F, "require is only available while scripts load"));
                }
                let l = &r.layers[layer];
                (l.env.clone(), l.dir.clone(), l.shared_dir.clone(), l.display_root.clone())
            };
            let Some(rel) = module_path(&name) else {
                return Err(raise(
                    lua,
                    F,
                    format!("require(\"{name}\"): not allowed; a module name is relative to the layer folder or scripts/ (like \"util\" or \"lib/util\"), without '..' or absolute paths"),
                ));
            };
            let candidates = [dir.join(&rel), shared.join(&rel)];
            let found = candidates.iter().zip([&dir, &shared]).find_map(|(path, root_dir)| {
                // Canonical paths catch a symlink leading out of the allowed folders.
                let real = path.canonicalize().ok()?;
                let real_root = root_dir.canonicalize().ok()?;
                (real.is_file() && real.starts_with(&real_root)).then_some(real)
            });
            let Some(real) = found else {
                let looked: Vec<String> = candidates.iter().map(|p| display_name(&root, p)).collect();
                return Err(raise(
                    lua,
                    F,
                    format!("require(\"{name}\"): module not found (looked for {})", looked.join(" and ")),
                ));
            };
            let key = (layer, real.clone());
            match reg.borrow().modules.get(&key) {
                Some(Module::Loaded(v)) => return Ok(v.clone()),
                Some(Module::Loading) => {
                    return Err(raise(lua, ScriptErrorKind::Runtime, format!("require(\"{name}\"): require cycle")))
                }
                None => {}
            }
            let display = display_name(&root, candidates.iter().find(|p| p.canonicalize().ok().as_ref() == Some(&real)).unwrap_or(&real));
            let text = std::fs::read_to_string(&real).map_err(|e| {
                raise(lua, ScriptErrorKind::Io, format!("require(\"{name}\"): cannot read {display}: {e}"))
            })?;
            {
                let mut r = reg.borrow_mut();
                r.sources.insert(display.clone(), real.clone());
                r.modules.insert(key.clone(), Module::Loading);
            }
            let result = lua
                .load(text)
                .set_name(format!("@{display}"))
                .set_environment(env)
                .set_mode(mlua::chunk::ChunkMode::Text)
                .call::<mlua::Value>(());
            let mut r = reg.borrow_mut();
            match result {
                Ok(v) => {
                    // As in Lua, a module that returns nothing is cached as `true`.
                    let v = if v.is_nil() { mlua::Value::Boolean(true) } else { v };
                    r.modules.insert(key, Module::Loaded(v.clone()));
                    Ok(v)
                }
                Err(e) => {
                    r.modules.remove(&key);
                    Err(e)
                }
            }
        })
    }

    /// Fires `event` at every matching handler, in order, until one says handled or vetoes.
    /// Handlers see `game` read-only; their requested commands come back in the result.
    ///
    /// On a veto or an error the per-layer stores are rolled back to where they were before the
    /// call, so a rejected command leaves no trace (principle §8).
    pub fn dispatch(&mut self, event: &Event, game: &dyn GameView) -> Result<Dispatch, ScriptError> {
        self.dispatch_with(event, &Eager, game)
    }

    /// [`dispatch`](Self::dispatch) with payload fields that are worked out only when a filter
    /// or a handler reads them (once per dispatch), and handed to each handler that reads
    /// them as a fresh table of its own.
    ///
    /// A handler's `ev` has a metatable while the handler runs: reading a lazy field fills it
    /// in, and `for k, v in ev` fills them all. It is taken off when the handler returns, so an
    /// `ev` kept in the store is plain data with the fields that were read.
    pub fn dispatch_with(
        &mut self,
        event: &Event,
        lazy: &dyn LazyFields,
        game: &dyn GameView,
    ) -> Result<Dispatch, ScriptError> {
        debug_assert!(
            lazy.names().iter().all(|n| !event.payload.contains_key(*n)),
            "lazy fields of `{}` also in the payload",
            event.kind
        );
        let lazy = payload::Lazy::new(lazy, event.kind);
        let field = |name: &str| -> Option<&Value> { event.payload.get(name).or_else(|| lazy.get(name)) };
        let calls = self.calls_for(event.kind, field);
        if calls.is_empty() {
            return Ok(Dispatch::default());
        }

        self.reg.borrow_mut().phase = Phase::Dispatching;
        let requests = RefCell::new(Vec::new());
        let current = RefCell::new(String::new());
        let kind = event.kind;
        let template = match self.template(&event.payload) {
            Ok(t) => t,
            Err(e) => {
                self.reg.borrow_mut().phase = Phase::Idle;
                return Err(ScriptError::new(ScriptErrorKind::Data, e.to_string()).during(kind, None));
            }
        };
        let scoped = self.lua.scope(|scope| {
            let handle = view::GameHandle {
                view: game,
                requests: &requests,
                current: &current,
                lazy: &lazy,
                lazy_key: &self.runner.key,
            };
            let answer =
                scope.create_function(move |lua, (name, args): (mlua::Value, mlua::MultiValue)| {
                    view::answer(lua, &handle, name, args)
                })?;
            // A handle of its own per dispatch (a kept one answers nothing), of a type
            // registered once; the scoped function behind it is the dispatch's only callback.
            // The runner puts both in the slot for each handler (`payload::Runner`).
            let game_ud = self.lua.create_any_userdata(view::GameProxy)?;
            let has_lazy = !lazy.is_empty();
            for call in &calls {
                *current.borrow_mut() = call.id.clone();
                match self.run_handler(call, kind, &template, &game_ud, &answer, has_lazy) {
                    Ok(Outcome::Continue) => {}
                    done => return Ok(done),
                }
            }
            Ok(Ok(Outcome::Continue))
        });
        // The handle is gone with the scope; a payload kept past its handler asks no more. A
        // handler that returned emptied the slot itself; one that failed did not.
        if !matches!(scoped, Ok(Ok(_))) {
            let _ = self.runner.slot.raw_set(1, mlua::Value::Nil);
            let _ = self.runner.slot.raw_set(2, mlua::Value::Nil);
        }
        let log = {
            let mut reg = self.reg.borrow_mut();
            reg.phase = Phase::Idle;
            reg.current = None;
            std::mem::take(&mut reg.log)
        };
        let outcome = match scoped {
            Ok(Ok(outcome)) => Ok(outcome),
            Ok(Err(e)) => Err(e),
            Err(e) => Err(self.convert(e, Some(kind), None, None)),
        };
        self.conclude(kind, outcome, requests.into_inner(), log)
    }

    /// The handlers of `kind` whose filter admits the payload (`field` gives its fields, lazy
    /// ones included), in dispatch order.
    fn calls_for<'v>(&self, kind: EventKind, field: impl Fn(&str) -> Option<&'v Value> + Copy) -> Vec<Call> {
        let reg = self.reg.borrow();
        reg.by_kind[kind.index()]
            .iter()
            .map(|&i| &reg.handlers[i])
            .filter(|h| h.matches(field))
            .map(|h| Call {
                id: h.id.clone(),
                func: h.func.clone(),
                file: h.file.clone(),
                line: h.line,
            })
            .collect()
    }

    /// One handler, under the step budget, given its copy of the payload: what it returned.
    fn run_handler(
        &self,
        call: &Call,
        kind: EventKind,
        template: &mlua::Table,
        game: &mlua::AnyUserData,
        answer: &mlua::Function,
        has_lazy: bool,
    ) -> Result<Outcome, ScriptError> {
        self.reg.borrow_mut().current = Some(call.id.clone());
        self.budget.arm();
        let result = self
            .runner
            .run
            .call::<mlua::Value>((&call.func, template, game, has_lazy, answer));
        self.budget.disarm();
        let returned =
            result.map_err(|e| self.convert(e, Some(kind), Some(&call.id), Some((&call.file, call.line))))?;
        match interpret_return(&returned, kind) {
            Ok(Outcome::Continue) => Ok(Outcome::Continue),
            Ok(Outcome::Handled { .. }) => Ok(Outcome::Handled { by: call.id.clone() }),
            Ok(Outcome::Veto { reason, .. }) => Ok(Outcome::Veto {
                by: call.id.clone(),
                reason,
            }),
            Err(message) => {
                let err = ScriptError::new(ScriptErrorKind::BadReturn, message)
                    .at(call.file.clone(), call.line)
                    .during(kind, Some(&call.id));
                Err(self.with_source(err))
            }
        }
    }

    /// A dispatch's end: the stores kept as they now stand, or rolled back after a veto or
    /// an error (and then no request goes through).
    fn conclude(
        &mut self,
        kind: EventKind,
        outcome: Result<Outcome, ScriptError>,
        requests: Vec<Request>,
        log: Vec<LogLine>,
    ) -> Result<Dispatch, ScriptError> {
        match outcome {
            Ok(Outcome::Veto { by, reason }) => {
                self.rollback_stores()?;
                Ok(Dispatch {
                    outcome: Outcome::Veto { by, reason },
                    requests: Vec::new(),
                    log,
                })
            }
            Ok(outcome) => match self.keep_stores(Some(kind)) {
                Ok(()) => Ok(Dispatch {
                    outcome,
                    requests,
                    log,
                }),
                Err(e) => {
                    self.rollback_stores()?;
                    Err(e)
                }
            },
            Err(e) => {
                self.rollback_stores()?;
                Err(e)
            }
        }
    }

    /// The payload as a Lua table, which handlers get copies of. The last dispatch's table is
    /// kept and changed where this payload differs, when both have the same fields in the same
    /// order: a battle's steps follow one another with only the step and the round changed,
    /// and making a table from Rust is a protected call per field and string.
    fn template(&mut self, payload: &IndexMap<String, Value>) -> Result<mlua::Table, value::ValueError> {
        if let Some((kept, table)) = &mut self.template {
            let same_fields =
                kept.len() == payload.len() && kept.keys().zip(payload.keys()).all(|(a, b)| a == b);
            if same_fields {
                for ((name, was), now) in kept.iter_mut().zip(payload.values()) {
                    if was == now {
                        continue;
                    }
                    let set = value::field_to_lua(&self.lua, name, now, &self.strings).and_then(|v| {
                        self.strings
                            .get(&self.lua, name)
                            .and_then(|k| table.raw_set(k, v))
                            .map_err(|e| value::ValueError {
                                path: format!("payload.{name}"),
                                message: e.to_string(),
                            })
                    });
                    if let Err(e) = set {
                        self.template = None;
                        return Err(e);
                    }
                    was.clone_from(now);
                }
                return Ok(table.clone());
            }
        }
        let table = value::payload_to_lua(&self.lua, payload, &self.strings, &self.runner.make)?;
        self.template = Some((payload.clone(), table.clone()));
        Ok(table)
    }

    /// Whether any handler listens to `kind` (so a caller can skip building the payload).
    pub fn listens(&self, kind: EventKind) -> bool {
        !self.reg.borrow().by_kind[kind.index()].is_empty()
    }

    /// Handlers for `kind`, in dispatch order.
    pub fn handlers(&self, kind: EventKind) -> Vec<HandlerInfo> {
        let reg = self.reg.borrow();
        reg.by_kind[kind.index()]
            .iter()
            .map(|&i| {
                let h = &reg.handlers[i];
                HandlerInfo {
                    id: h.id.clone(),
                    layer: reg.layers[h.layer].name.clone(),
                    priority: h.priority,
                    file: h.file.clone(),
                    line: h.line,
                }
            })
            .collect()
    }

    /// Handlers for `kind` that may run when the payload's `field` is one of `values` (their
    /// filter admits one, or does not look at the field), in dispatch order.
    pub fn handlers_for(&self, kind: EventKind, field: &str, values: &[Value]) -> Vec<HandlerInfo> {
        let admits: Vec<String> = {
            let reg = self.reg.borrow();
            reg.by_kind[kind.index()]
                .iter()
                .map(|&i| &reg.handlers[i])
                .filter(|h| {
                    h.filter
                        .iter()
                        .all(|(f, allowed)| f != field || values.iter().any(|v| allowed.contains(v)))
                })
                .map(|h| h.id.clone())
                .collect()
        };
        let mut all = self.handlers(kind);
        all.retain(|h| admits.contains(&h.id));
        all
    }

    /// Log lines written while scripts loaded (dispatch returns its own in [`Dispatch::log`]).
    pub fn take_log(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.reg.borrow_mut().log)
    }

    /// Every layer's `warroom.store`, as `{ layer name = store }` in layer order. Taken after
    /// the last successful load or dispatch, so it is always plain data.
    pub fn store_snapshot(&self) -> Value {
        Value::Map(self.last_good_store.clone())
    }

    /// Replaces every layer's store with the one in `snapshot` (from [`store_snapshot`]).
    /// Layers the snapshot does not mention get an empty store; a layer it names that is not
    /// loaded is an error, and nothing is changed then.
    ///
    /// [`store_snapshot`]: ScriptHost::store_snapshot
    pub fn restore_store(&mut self, snapshot: &Value) -> Result<(), ScriptError> {
        let bad = |m: String| ScriptError::new(ScriptErrorKind::Data, m);
        let Value::Map(by_layer) = snapshot else {
            return Err(bad(format!(
                "a store snapshot is a map of layer name to store, got a {}",
                snapshot.type_name()
            )));
        };
        let names: Vec<String> = self.reg.borrow().layers.iter().map(|l| l.name.clone()).collect();
        let mut next = IndexMap::new();
        for name in &names {
            next.insert(name.clone(), Value::Map(IndexMap::new()));
        }
        for (layer, store) in by_layer {
            if !names.contains(layer) {
                return Err(bad(format!(
                    "the store snapshot has a store for layer '{layer}', which is not loaded"
                )));
            }
            match store {
                Value::Map(_) => next.insert(layer.clone(), store.clone()),
                Value::List(l) if l.is_empty() => next.insert(layer.clone(), Value::Map(IndexMap::new())),
                other => {
                    return Err(bad(format!(
                        "the store of layer '{layer}' must be a map, got a {}",
                        other.type_name()
                    )))
                }
            };
        }
        self.write_stores(&next)?;
        // Normalise through Lua so the snapshot reads back exactly as a later one would.
        self.last_good_store = self.read_all_stores(None)?;
        Ok(())
    }

    fn rollback_stores(&mut self) -> Result<(), ScriptError> {
        let good = self.last_good_store.clone();
        self.write_stores(&good)
    }

    fn write_stores(&self, stores: &IndexMap<String, Value>) -> Result<(), ScriptError> {
        let reg = self.reg.borrow();
        for layer in &reg.layers {
            let data_err = |m: String| ScriptError::new(ScriptErrorKind::Data, m);
            layer.store.clear().map_err(|e| data_err(e.to_string()))?;
            if let Some(Value::Map(m)) = stores.get(&layer.name) {
                value::fill_table(&self.lua, &layer.store, m, "warroom.store")
                    .map_err(|e| data_err(format!("layer '{}': {e}", layer.name)))?;
            }
        }
        Ok(())
    }

    fn read_store(&self, layer: usize, event: Option<EventKind>) -> Result<Value, ScriptError> {
        let reg = self.reg.borrow();
        let l = &reg.layers[layer];
        value::from_lua(&mlua::Value::Table(l.store.clone()), "warroom.store").map_err(|e| {
            let mut err = ScriptError::new(ScriptErrorKind::Data, format!("layer '{}': {e}", l.name));
            err.event = event;
            err
        })
    }

    /// The stores as they now stand become `last_good_store` (unchanged when one cannot be
    /// read). After every dispatch: the layers are those it holds already, so only their
    /// stores are read, into the entries there.
    fn keep_stores(&mut self, event: Option<EventKind>) -> Result<(), ScriptError> {
        let same_layers = {
            let reg = self.reg.borrow();
            self.last_good_store.len() == reg.layers.len()
                && self
                    .last_good_store
                    .keys()
                    .zip(&reg.layers)
                    .all(|(k, l)| *k == l.name)
        };
        if !same_layers {
            self.last_good_store = self.read_all_stores(event)?;
            return Ok(());
        }
        let fresh = (0..self.last_good_store.len())
            .map(|i| self.read_store(i, event))
            .collect::<Result<Vec<Value>, ScriptError>>()?;
        for (kept, now) in self.last_good_store.values_mut().zip(fresh) {
            *kept = now;
        }
        Ok(())
    }

    fn read_all_stores(&self, event: Option<EventKind>) -> Result<IndexMap<String, Value>, ScriptError> {
        let names: Vec<String> = self.reg.borrow().layers.iter().map(|l| l.name.clone()).collect();
        let mut out = IndexMap::with_capacity(names.len());
        for (i, name) in names.into_iter().enumerate() {
            out.insert(name, self.read_store(i, event)?);
        }
        Ok(out)
    }

    /// Turns an mlua error into a located [`ScriptError`]. `fallback` is where to point when
    /// the error itself carries no location (a handler's registration site, a script's file).
    fn convert(
        &self,
        err: mlua::Error,
        event: Option<EventKind>,
        handler: Option<&str>,
        fallback: Option<(&str, Option<u32>)>,
    ) -> ScriptError {
        let mut traceback = None;
        let mut cur = &err;
        let (mut kind, text) = loop {
            match cur {
                mlua::Error::CallbackError { traceback: tb, cause } => {
                    traceback.get_or_insert_with(|| tb.clone());
                    cur = cause;
                }
                mlua::Error::WithContext { cause, .. } => cur = cause,
                mlua::Error::ExternalError(e) => match e.downcast_ref::<Raised>() {
                    Some(r) => break (r.kind, r.message.clone()),
                    None => break (ScriptErrorKind::Runtime, e.to_string()),
                },
                mlua::Error::SyntaxError { message, .. } => break (ScriptErrorKind::Syntax, message.clone()),
                mlua::Error::MemoryError(m) => {
                    let limit = self.limits.memory_bytes >> 20;
                    break (
                        ScriptErrorKind::Memory,
                        format!("out of script memory ({m}; the limit is {limit} MiB)"),
                    );
                }
                mlua::Error::RuntimeError(m) => break (ScriptErrorKind::Runtime, m.clone()),
                other => break (ScriptErrorKind::Runtime, other.to_string()),
            }
        };
        if self.budget.tripped.get() {
            kind = ScriptErrorKind::Budget;
        }
        // Lua appends its own traceback to runtime errors; keep the message on its own.
        let (message, lua_tb) = match text.split_once("\nstack traceback:") {
            Some((m, tb)) => (m.to_owned(), Some(format!("stack traceback:{tb}"))),
            None => (text, None),
        };
        if kind == ScriptErrorKind::Runtime && message.contains(UNKNOWN_GLOBAL_MARK) {
            kind = ScriptErrorKind::Forbidden;
        }
        if kind == ScriptErrorKind::Memory {
            // The garbage that hit the cap is unreachable now; collect it so the next call
            // starts with the allowance free.
            let _ = self.lua.gc_collect();
            let _ = self.lua.gc_collect();
        }
        let traceback = lua_tb.or(traceback);

        let located = {
            let reg = self.reg.borrow();
            let known = || reg.sources.keys().map(String::as_str);
            find_location(&message, known()).or_else(|| {
                traceback
                    .as_deref()
                    .and_then(|tb| find_location(tb, known()))
                    .map(|(f, l, _)| (f, l, 0))
            })
        };
        let mut out = match located {
            Some((file, line, strip)) => {
                ScriptError::new(kind, message[strip..].to_owned()).at(file, Some(line))
            }
            None => match fallback {
                // Lua gave no position (memory errors carry none): point at the handler's
                // registration, and say so.
                Some((file, line)) if handler.is_some() => {
                    ScriptError::new(kind, format!("{message} (somewhere in this handler)")).at(file, line)
                }
                Some((file, line)) => ScriptError::new(kind, message).at(file, line),
                None => ScriptError::new(kind, message),
            },
        };
        out.traceback = traceback;
        if let Some(ev) = event {
            out = out.during(ev, handler);
        }
        self.with_source(out)
    }

    fn with_source(&self, err: ScriptError) -> ScriptError {
        let path = err
            .file
            .as_ref()
            .and_then(|f| self.reg.borrow().sources.get(f).cloned());
        match path {
            Some(p) => err.with_source_file(&p),
            None => err,
        }
    }
}

/// ` (did you mean `NAME`?)` when a known name is a plausible typo of `name`, else nothing.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    crate::tree::closest_key(name, known)
        .map(|k| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default()
}

/// The return protocol: nothing or "continue", "handled", or `{ veto = "reason" }` (only on
/// events that can be vetoed). `Err` is the message for anything else.
fn interpret_return(v: &mlua::Value, kind: EventKind) -> Result<Outcome, String> {
    const EXPECTED: &str = "expected nothing, \"continue\", \"handled\" or { veto = \"reason\" }";
    match v {
        mlua::Value::Nil => Ok(Outcome::Continue),
        mlua::Value::String(s) => match s.to_str().as_deref() {
            Ok("continue") => Ok(Outcome::Continue),
            Ok("handled") => Ok(Outcome::Handled { by: String::new() }),
            _ => Err(format!(
                "bad return value \"{}\" from handler{}; {EXPECTED}",
                s.to_string_lossy(),
                did_you_mean(&s.to_string_lossy(), ["continue", "handled"])
            )),
        },
        mlua::Value::Table(t) => {
            let mut reason = None;
            let mut other = None;
            let _ = t.for_each::<mlua::Value, mlua::Value>(|k, v| {
                match (&k, &v) {
                    (mlua::Value::String(k), mlua::Value::String(r)) if k == "veto" => {
                        reason = Some(r.to_string_lossy())
                    }
                    _ => other = Some(k.to_string().unwrap_or_else(|_| value::lua_type(&k).to_owned())),
                }
                Ok(())
            });
            match (reason, other) {
                (Some(reason), None) if !reason.trim().is_empty() => {
                    if kind.can_veto() {
                        Ok(Outcome::Veto {
                            by: String::new(),
                            reason,
                        })
                    } else {
                        Err(format!(
                            "event {kind} cannot be vetoed (only validate_* and before_* events and a layer's `command` can); return nothing or \"handled\""
                        ))
                    }
                }
                (Some(_), None) => Err("bad return value: a veto needs a non-empty reason".into()),
                (_, Some(key)) => Err(format!(
                    "bad return value: unexpected field '{key}' in the returned table{}; {EXPECTED}",
                    did_you_mean(&key, ["veto"])
                )),
                (None, None) => Err(format!("bad return value: an empty table; {EXPECTED}")),
            }
        }
        other => Err(format!(
            "bad return value (a {}) from handler; {EXPECTED}",
            value::lua_type(other)
        )),
    }
}

/// Reads `{ id = ..., priority = ..., filter = {...} }`.
fn parse_options(opts: &mlua::Table, kind: EventKind) -> Result<(String, i64, Filter), String> {
    let mut id = None;
    let mut priority = 0i64;
    let mut filter = Vec::new();
    let mut problems = Vec::new();
    opts.for_each::<mlua::Value, mlua::Value>(|k, v| {
        let key = k.to_string().unwrap_or_default();
        match (key.as_str(), &v) {
            ("id", mlua::Value::String(s)) if !s.to_string_lossy().trim().is_empty() => {
                id = Some(s.to_string_lossy())
            }
            ("id", _) => problems.push("`id` must be a non-empty string".to_owned()),
            ("priority", mlua::Value::Integer(p)) => priority = value::int(*p),
            ("priority", mlua::Value::Number(p)) if p.fract() == 0.0 && p.abs() < 1e15 => {
                priority = *p as i64
            }
            ("priority", _) => problems.push("`priority` must be a whole number".to_owned()),
            ("filter", mlua::Value::Table(t)) => {
                match value::from_lua(&mlua::Value::Table(t.clone()), "filter") {
                    Ok(Value::Map(m)) => {
                        for (field, want) in m {
                            if !kind.payload_fields().contains(&field.as_str()) {
                                problems.push(format!(
                                    "filter field '{field}' is not in the payload of {kind}{} (fields: {})",
                                    did_you_mean(&field, kind.payload_fields().iter().copied()),
                                    kind.payload_fields().join(", ")
                                ));
                                continue;
                            }
                            let allowed = match want {
                                Value::List(items) => items,
                                one => vec![one],
                            };
                            filter.push((field, allowed));
                        }
                    }
                    Ok(_) => problems.push("`filter` must be a table of field = value".to_owned()),
                    Err(e) => problems.push(format!("bad filter: {e}")),
                }
            }
            ("filter", _) => problems.push("`filter` must be a table".to_owned()),
            (other, _) => {
                let known: Vec<&str> = api::HANDLER_OPTIONS.iter().map(|o| o.name).collect();
                problems.push(format!(
                    "unknown option '{other}'{} (known: {})",
                    did_you_mean(other, known.iter().copied()),
                    known.join(", ")
                ))
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    // Sorted so that the message does not depend on `pairs` order.
    problems.sort();
    if let Some(first) = problems.first() {
        return Err(format!("warroom.on: {first}"));
    }
    let Some(id) = id else {
        return Err("warroom.on: the options need an `id` (like \"house.no_tanks\") so later layers can remove or replace the handler".into());
    };
    Ok((id, priority, filter))
}

fn handler_id_arg(lua: &Lua, what: &str, id: &mlua::Value) -> mlua::Result<String> {
    match id {
        mlua::Value::String(s) => Ok(s.to_string_lossy()),
        other => Err(raise(
            lua,
            ScriptErrorKind::Registration,
            format!(
                "{what}: the handler id must be a string, got a {}",
                value::lua_type(other)
            ),
        )),
    }
}

/// Splits "file:line: " from [`caller_location`] back into its parts.
fn split_location(loc: &str) -> (String, Option<u32>) {
    let loc = loc.trim_end_matches(": ");
    match loc.rsplit_once(':') {
        Some((file, line)) => (file.to_owned(), line.parse().ok()),
        None => (loc.to_owned(), None),
    }
}

fn fmt_loc(file: &str, line: Option<u32>) -> String {
    match line {
        Some(l) => format!("{file}:{l}"),
        None => file.to_owned(),
    }
}

/// True for a relative path with only normal components (no `..`, no root, no prefix).
fn is_plain_relative(p: &Path) -> bool {
    p.components().next().is_some() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

/// The file a module name refers to, relative to a search folder: `util` → `util.lua`,
/// `lib.util` or `lib/util` → `lib/util.lua`. `None` for anything that could leave the folder.
fn module_path(name: &str) -> Option<PathBuf> {
    let stem = name.strip_suffix(".lua").unwrap_or(name);
    if stem.is_empty() || stem.starts_with('/') {
        return None;
    }
    let mut path = PathBuf::new();
    for seg in stem.split(['/', '.']) {
        let ok = !seg.is_empty()
            && seg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            return None;
        }
        path.push(seg);
    }
    path.set_extension("lua");
    Some(path)
}

/// `path` relative to `root`, with `/` separators, as chunk names and errors show it.
fn display_name(root: &Path, path: &Path) -> String {
    let rel = path
        .strip_prefix(root)
        .ok()
        .map(Path::to_path_buf)
        .or_else(|| {
            let (r, p) = (root.canonicalize().ok()?, path.canonicalize().ok()?);
            p.strip_prefix(r).ok().map(Path::to_path_buf)
        })
        .unwrap_or_else(|| path.to_path_buf());
    // The root of an absolute path (a script outside the project) is the empty first part, so
    // the path prints with one leading `/`, as the author wrote it.
    let parts: Vec<String> = rel
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| match c {
            Component::RootDir => String::new(),
            c => c.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_cannot_leave_the_folder() {
        assert_eq!(module_path("util"), Some(PathBuf::from("util.lua")));
        assert_eq!(module_path("lib.util"), Some(PathBuf::from("lib/util.lua")));
        assert_eq!(module_path("lib/util.lua"), Some(PathBuf::from("lib/util.lua")));
        for bad in [
            "",
            "../../etc/passwd",
            "/etc/passwd",
            "a/../b",
            "a\\b",
            "C:x",
            "a//b",
            "..",
        ] {
            assert_eq!(module_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn display_names_are_relative_with_slashes() {
        let root = Path::new("/r");
        assert_eq!(
            display_name(root, Path::new("/r/editions/a/rules.lua")),
            "editions/a/rules.lua"
        );
        // Outside the project: the path as written, one leading slash.
        assert_eq!(
            display_name(root, Path::new("/elsewhere/house/rules.lua")),
            "/elsewhere/house/rules.lua"
        );
    }
}
