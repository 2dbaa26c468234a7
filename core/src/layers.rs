//! Layers: folders with a `layer.toml` manifest, chained by explicit `extends`, merged into
//! one data tree.
//!
//! Architecture invariant: the order in which layers and files apply comes only from
//! manifests and the command line, never from a directory listing.

use crate::diag::{Label, Problem, Problems, Sources};
use crate::rules::read::{Ctx, Fields};
use crate::rules::schema::{Field, Table as SchemaTable};
use crate::tree::{closest_key, Merger, Node, Origin, Table, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const MANIFEST: &str = "layer.toml";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    Edition,
    Shared,
    Option,
    House,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    Int,
    Float,
    Bool,
    String,
}

impl ParamType {
    pub fn name(self) -> &'static str {
        match self {
            ParamType::Int => "int",
            ParamType::Float => "float",
            ParamType::Bool => "bool",
            ParamType::String => "string",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: ParamType,
    pub default: Node,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub choices: Vec<String>,
    pub description: String,
    /// The value in force (the default unless the command line set it).
    pub value: Node,
}

/// An optional layer an edition offers.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: String,
    pub path: PathBuf,
    pub description: String,
    pub declared_by: String,
}

#[derive(Clone, Debug)]
pub struct Layer {
    pub name: String,
    pub kind: LayerKind,
    pub title: String,
    pub dir: PathBuf,
    /// The folder as shown to users, e.g. `editions/anniversary`.
    pub display_dir: String,
    pub files: Vec<String>,
    /// Where each of `files` is listed in the manifest (a file that cannot be read is
    /// reported there).
    pub files_at: Vec<Origin>,
    pub scripts: Vec<String>,
    pub default_scenario: Option<String>,
    pub default_scenario_at: Option<Origin>,
    pub options: Vec<OptionDecl>,
    pub params: Vec<Param>,
}

/// What to load: an edition (name under `editions_dir`, or a folder) plus optional layers.
#[derive(Clone, Debug)]
pub struct LoadRequest {
    pub editions_dir: PathBuf,
    pub edition: String,
    /// `NAME`, `NAME=VALUE` (a layer with one parameter), `NAME:PARAM=VALUE`, or a folder path
    /// (relative to the current directory, else to `editions_dir`: `house/bid:germany=12`).
    pub with: Vec<String>,
}

impl LoadRequest {
    pub fn new(editions_dir: impl Into<PathBuf>, edition: impl Into<String>) -> Self {
        LoadRequest {
            editions_dir: editions_dir.into(),
            edition: edition.into(),
            with: Vec::new(),
        }
    }

    pub fn with(mut self, layer: impl Into<String>) -> Self {
        self.with.push(layer.into());
        self
    }
}

/// The layers in application order and the merged tree.
pub struct Merged {
    pub layers: Vec<Layer>,
    pub tree: Node,
    pub sources: Sources,
    pub problems: Problems,
}

struct Loader {
    editions_dir: PathBuf,
    display_root: PathBuf,
    sources: Sources,
    problems: Problems,
    layers: Vec<Layer>,
    /// Canonical directories of layers applied or being visited (for cycles).
    stack: Vec<PathBuf>,
    done: Vec<PathBuf>,
    manifests: Vec<Node>,
}

pub fn merge(req: &LoadRequest) -> Merged {
    let display_root = normalize(&absolute(&req.editions_dir))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut l = Loader {
        editions_dir: req.editions_dir.clone(),
        display_root,
        sources: Sources::default(),
        problems: Problems::default(),
        layers: Vec::new(),
        stack: Vec::new(),
        done: Vec::new(),
        manifests: Vec::new(),
    };
    let edition_dir = absolute(&l.resolve_name(&req.edition, None));
    if !edition_dir.join(MANIFEST).is_file() {
        let mut p = Problem::new(
            "layer::not-found",
            format!(
                "no edition or layer `{}` (looked for {})",
                req.edition,
                edition_dir.join(MANIFEST).display()
            ),
        );
        let names = list_editions(&req.editions_dir);
        if let Some(s) = closest_key(&req.edition, names.iter().map(String::as_str)) {
            p = p.help(format!("did you mean `{s}`?"));
        } else if !names.is_empty() {
            p = p.help(format!("editions: {}", names.join(", ")));
        }
        l.problems.push(p);
    } else {
        l.visit(&edition_dir, None);
    }
    // Command-line values for parameters, kept as a source so diagnostics can point at them.
    let cli_text = req.with.join("\n");
    let cli_file = l
        .sources
        .add(Path::new("<command line>"), "<command line>".into(), cli_text);
    let mut offset = 0;
    for w in &req.with {
        let span = offset..offset + w.len();
        offset += w.len() + 1;
        l.apply_with(w, cli_file, span);
    }
    let mut tree = Node::new(
        Value::Table(Table::default()),
        Origin {
            layer: Arc::from("<root>"),
            file: cli_file,
            span: 0..0,
        },
    );
    let layers = std::mem::take(&mut l.layers);
    for layer in &layers {
        let arc: Arc<str> = Arc::from(layer.name.as_str());
        for (file, at) in layer.files.iter().zip(&layer.files_at) {
            let path = layer.dir.join(file);
            let display = format!("{}/{}", layer.display_dir, file);
            match crate::diag::read_text(&path) {
                Ok((text, bad)) => {
                    let id = l.sources.add(&path, display, text);
                    if let Some(offset) = bad {
                        l.problems.push(crate::diag::not_utf8(&l.sources, id, offset));
                        continue;
                    }
                    if let Some(mut node) = crate::tree::parse_file(&l.sources, id, &arc, &mut l.problems) {
                        substitute_params(&mut node, layer, &l.sources, &mut l.problems);
                        Merger {
                            sources: &l.sources,
                            problems: &mut l.problems,
                        }
                        .apply_file(&mut tree, node);
                    }
                }
                Err(e) => l.problems.push(
                    Problem::new(
                        "layer::missing-file",
                        format!("layer `{}` lists `{file}` but it cannot be read: {e}", layer.name),
                    )
                    .at(at.label(&l.sources, "listed here")),
                ),
            }
        }
    }
    Merged {
        layers,
        tree,
        sources: l.sources,
        problems: l.problems,
    }
}

/// Edition folders (those with a manifest of kind `edition`) under `editions_dir`, sorted.
pub fn list_editions(editions_dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(editions_dir) {
        for e in rd.flatten() {
            let p = e.path().join(MANIFEST);
            if let Ok(text) = std::fs::read_to_string(&p) {
                if text.contains("kind = \"edition\"") {
                    out.push(e.file_name().to_string_lossy().into_owned());
                }
            }
        }
    }
    out.sort();
    out
}

impl Loader {
    fn display(&self, dir: &Path) -> String {
        // Relative to the project, else to the current folder (a house rule kept beside the
        // games), else as it is.
        let here = std::env::current_dir().map(|d| normalize(&d)).ok();
        let rel = dir
            .strip_prefix(&self.display_root)
            .ok()
            .or_else(|| here.as_deref().and_then(|h| dir.strip_prefix(h).ok()))
            .unwrap_or(dir);
        rel.to_string_lossy().replace('\\', "/")
    }

    /// A layer reference: a path (contains a slash or starts with a dot) relative to `base`,
    /// or a folder name under `editions/`. A path given without a base (the command line, a
    /// scenario file) is relative to the current directory, or, when no layer is there, to
    /// the editions folder: `house/bid` is `editions/house/bid` from anywhere.
    fn resolve_name(&self, name: &str, base: Option<&Path>) -> PathBuf {
        let p = Path::new(name);
        if !(name.contains('/') || name.starts_with('.')) {
            let under = normalize(&self.editions_dir.join(name));
            // A bare name on the command line may also be a folder here: `warroom check my-house`.
            if base.is_none() && !under.join(MANIFEST).is_file() && p.join(MANIFEST).is_file() {
                return normalize(p);
            }
            return under;
        }
        match base {
            Some(b) if p.is_relative() => normalize(&b.join(p)),
            Some(_) => normalize(p),
            None => self.folder(name),
        }
    }

    /// A folder path from the command line or a scenario file (see `resolve_name`).
    fn folder(&self, name: &str) -> PathBuf {
        let p = normalize(Path::new(name));
        if p.is_relative() && !p.join(MANIFEST).is_file() {
            let under = normalize(&self.editions_dir.join(&p));
            if under.join(MANIFEST).is_file() {
                return under;
            }
        }
        p
    }

    fn visit(&mut self, dir: &Path, via: Option<Label>) -> Option<usize> {
        let canon = normalize(&absolute(dir));
        if let Some(i) = self.done.iter().position(|d| d == &canon) {
            return Some(i);
        }
        if self.stack.contains(&canon) {
            let chain: Vec<String> = self
                .stack
                .iter()
                .chain(std::iter::once(&canon))
                .map(|d| self.display(d))
                .collect();
            let mut p = Problem::new(
                "layer::extends-cycle",
                format!("layers extend each other in a cycle: {}", chain.join(" -> ")),
            );
            if let Some(l) = via {
                p = p.at(l);
            }
            self.problems.push(p);
            return None;
        }
        let manifest_path = canon.join(MANIFEST);
        let (text, bad) = match crate::diag::read_text(&manifest_path) {
            Ok(t) => t,
            Err(e) => {
                let mut p = Problem::new(
                    "layer::not-found",
                    format!("cannot read {}: {e}", manifest_path.display()),
                );
                if let Some(l) = via {
                    p = p.at(l);
                }
                self.problems.push(p);
                return None;
            }
        };
        let display_dir = self.display(&canon);
        let file = self
            .sources
            .add(&manifest_path, format!("{display_dir}/{MANIFEST}"), text);
        if let Some(offset) = bad {
            self.problems
                .push(crate::diag::not_utf8(&self.sources, file, offset));
            return None;
        }
        let layer_arc: Arc<str> = Arc::from(display_dir.as_str());
        let node = crate::tree::parse_file(&self.sources, file, &layer_arc, &mut self.problems)?;
        self.stack.push(canon.clone());
        let mut ctx = Ctx {
            sources: &self.sources,
            problems: Problems::default(),
            tree: None,
        };
        let parsed = read_manifest(&mut ctx, &node, &canon, display_dir);
        let extends: Vec<(String, Origin)> = parsed.as_ref().map(|m| m.1.clone()).unwrap_or_default();
        let mut problems = ctx.problems;
        self.problems.0.append(&mut problems.0);
        for (name, origin) in extends {
            let target = self.resolve_name(&name, Some(&canon));
            let label = origin.label(&self.sources, "extended here");
            self.visit(&target, Some(label));
        }
        self.stack.pop();
        let (layer, _) = parsed?;
        self.done.push(canon);
        self.layers.push(layer);
        self.manifests.push(node);
        Some(self.layers.len() - 1)
    }

    fn apply_with(&mut self, spec: &str, cli: crate::diag::FileId, span: std::ops::Range<usize>) {
        let cli_label = |s: &Sources, text: &str| Label::new(s, cli, span.clone(), text);
        let (name, assignment) = match spec.split_once(['=', ':']) {
            Some((n, _)) => {
                let rest = &spec[n.len()..];
                (n.to_string(), Some(rest.to_string()))
            }
            None => (spec.to_string(), None),
        };
        // Declared options of the layers loaded so far come first; then a folder path.
        let decl = self
            .layers
            .iter()
            .flat_map(|l| l.options.iter())
            .find(|o| o.name == name)
            .cloned();
        let dir = match decl {
            Some(d) => d.path,
            None if name.contains('/') || name.starts_with('.') => self.folder(&name),
            // A house rule's folder in the current directory: `--with my-house`.
            None if Path::new(&name).join(MANIFEST).is_file() => normalize(Path::new(&name)),
            None => {
                let known: Vec<String> = self
                    .layers
                    .iter()
                    .flat_map(|l| l.options.iter().map(|o| o.name.clone()))
                    .collect();
                let mut p = Problem::new("layer::unknown-option", format!("no optional layer `{name}`"))
                    .at(cli_label(&self.sources, "named here"));
                if let Some(s) = closest_key(&name, known.iter().map(String::as_str)) {
                    p = p.help(format!("did you mean `{s}`?"));
                } else if known.is_empty() {
                    p = p.help("this edition offers no optional layers; give a folder path for a house rule");
                } else {
                    p = p.help(format!("available: {}", known.join(", ")));
                }
                self.problems.push(p);
                return;
            }
        };
        let Some(idx) = self.visit(&dir, Some(cli_label(&self.sources, "asked for here"))) else {
            return;
        };
        let Some(assign) = assignment else { return };
        // `=VALUE` (single parameter) or `:PARAM=VALUE`.
        let (pname, value) = if let Some(rest) = assign.strip_prefix(':') {
            match rest.split_once('=') {
                Some((p, v)) => (Some(p.to_string()), v.to_string()),
                None => {
                    self.problems.push(
                        Problem::new(
                            "layer::bad-param",
                            format!("`{spec}`: expected LAYER:PARAM=VALUE"),
                        )
                        .at(cli_label(&self.sources, "here")),
                    );
                    return;
                }
            }
        } else {
            (None, assign.trim_start_matches('=').to_string())
        };
        let layer = &self.layers[idx];
        let param_idx = match &pname {
            Some(p) => layer.params.iter().position(|x| &x.name == p),
            None if layer.params.len() == 1 => Some(0),
            None => None,
        };
        let Some(pi) = param_idx else {
            let names: Vec<&str> = layer.params.iter().map(|p| p.name.as_str()).collect();
            let msg = match &pname {
                Some(p) => format!("layer `{}` has no parameter `{p}`", layer.name),
                None => format!(
                    "layer `{}` has {} parameters; name one as {}:PARAM=VALUE",
                    layer.name,
                    names.len(),
                    layer.name
                ),
            };
            self.problems.push(
                Problem::new("layer::bad-param", msg)
                    .at(cli_label(&self.sources, "here"))
                    .help(if names.is_empty() {
                        "it takes no parameters".to_string()
                    } else {
                        format!("parameters: {}", names.join(", "))
                    }),
            );
            return;
        };
        let origin = Origin {
            layer: Arc::from("<command line>"),
            file: cli,
            span: span.clone(),
        };
        let param = &self.layers[idx].params[pi];
        match parse_param_value(param, &value, origin) {
            Ok(node) => self.layers[idx].params[pi].value = node,
            Err(msg) => self
                .problems
                .push(Problem::new("layer::bad-param", msg).at(cli_label(&self.sources, "this value"))),
        }
    }
}

fn parse_param_value(param: &Param, text: &str, origin: Origin) -> Result<Node, String> {
    let value = match param.ty {
        ParamType::Int => Value::Int(
            text.parse()
                .map_err(|_| format!("parameter `{}` takes an integer, not {text:?}", param.name))?,
        ),
        ParamType::Float => Value::Float(
            text.parse()
                .map_err(|_| format!("parameter `{}` takes a number, not {text:?}", param.name))?,
        ),
        ParamType::Bool => Value::Bool(
            text.parse()
                .map_err(|_| format!("parameter `{}` takes true or false, not {text:?}", param.name))?,
        ),
        ParamType::String => Value::Str(text.to_string()),
    };
    let node = Node::new(value, origin);
    check_param_bounds(param, &node)?;
    Ok(node)
}

fn check_param_bounds(param: &Param, node: &Node) -> Result<(), String> {
    let num = match node.value {
        Value::Int(i) => Some(i as f64),
        Value::Float(f) => Some(f),
        _ => None,
    };
    if let Some(n) = num {
        if param.min.is_some_and(|m| n < m) || param.max.is_some_and(|m| n > m) {
            return Err(format!(
                "parameter `{}` must be between {} and {}, not {}",
                param.name,
                param.min.map_or("-inf".into(), |m| m.to_string()),
                param.max.map_or("inf".into(), |m| m.to_string()),
                node.render()
            ));
        }
    }
    if !param.choices.is_empty() {
        let s = match &node.value {
            Value::Str(s) => s.clone(),
            _ => node.render(),
        };
        if !param.choices.contains(&s) {
            return Err(format!(
                "parameter `{}` must be one of {}, not {s}",
                param.name,
                param.choices.join(", ")
            ));
        }
    }
    Ok(())
}

type ManifestOut = (Layer, Vec<(String, Origin)>);

/// The top level of `layer.toml`.
pub(crate) static MANIFEST_ROOT: SchemaTable = SchemaTable {
    path: "",
    doc: "The top level of `layer.toml`.",
    fields: &[
        Field::req("layer", "table", "the layer itself: `layer`"),
        Field::opt("options", "<option> → table", "optional layers this layer offers, off unless asked for with `--with <option>`: `options.<option>`"),
        Field::opt("params", "<param> → table", "typed parameters (option and house layers), set with `--with <layer>:<param>=VALUE`: `params.<param>`"),
    ],
};

/// `[layer]` of `layer.toml`.
pub(crate) static LAYER: SchemaTable = SchemaTable {
    path: "layer",
    doc: "What the layer is and what it loads, in order.",
    fields: &[
        Field::req("name", "string", "unique name; how `--with` and `extends` refer to the layer"),
        Field::req("kind", "string", "what it is: a playable edition, data shared by editions, an optional rule or a house rule")
            .one_of(&["edition", "shared", "option", "house"]),
        Field::def("title", "string", "\"\"", "the name shown in listings"),
        Field::def("extends", "[string]", "[]", "parents, applied in this order before this layer, depth first (paths relative to this folder, or names of folders under `editions/`); a cycle is an error"),
        Field::def("files", "[string]", "[]", "data files merged in this order"),
        Field::def("scripts", "[string]", "[]", "Lua scripts loaded in this order (docs/events.md); `require` resolves in this folder, then `scripts/`"),
        Field::opt("default_scenario", "string", "the scenario `play` starts when none is named (the last layer of the chain to set it wins)"),
    ],
};

/// `[options.<option>]` of `layer.toml`.
pub(crate) static OPTION: SchemaTable = SchemaTable {
    path: "options.<option>",
    doc: "An optional layer the edition offers (`warroom editions` lists them).",
    fields: &[
        Field::req("path", "string", "the option's folder, relative to this one"),
        Field::def("description", "string", "\"\"", "one line shown in listings"),
    ],
};

/// `[params.<param>]` of `layer.toml`.
pub(crate) static PARAM: SchemaTable = SchemaTable {
    path: "params.<param>",
    doc: "A typed parameter of an option or house layer; data files use it as `{ param = \"<param>\" }`.",
    fields: &[
        Field::req("type", "string", "the value's type").one_of(&["int", "float", "bool", "string"]),
        Field::req(
            "default",
            "int | float | bool | string",
            "the value unless `--with` sets another, of the param's `type`",
        ),
        Field::opt("min", "number", "smallest value allowed (int and float)"),
        Field::opt("max", "number", "largest value allowed (int and float)"),
        Field::def(
            "choices",
            "[string]",
            "[]",
            "the values allowed (string); empty: any",
        ),
        Field::def("description", "string", "\"\"", "one line shown in listings"),
    ],
};

fn read_manifest(ctx: &mut Ctx, node: &Node, dir: &Path, display_dir: String) -> Option<ManifestOut> {
    let mut top = Fields::of(ctx, node, "", &MANIFEST_ROOT)?;
    let mut f = match top.table(ctx, "layer", &LAYER) {
        Some(f) => f,
        None => {
            ctx.error_at(
                node,
                "layer::manifest",
                "the manifest has no [layer] table".into(),
                "add [layer] with name, kind and files",
            );
            return None;
        }
    };
    let name = f.req_str(ctx, "name");
    let kind = f.req_choice(
        ctx,
        "kind",
        &[
            ("edition", LayerKind::Edition),
            ("shared", LayerKind::Shared),
            ("option", LayerKind::Option),
            ("house", LayerKind::House),
        ],
    );
    let title = f.str(ctx, "title").unwrap_or_default();
    let extends: Vec<(String, Origin)> = f
        .str_list(ctx, "extends")
        .into_iter()
        .map(|(s, n)| (s, n.origin.clone()))
        .collect();
    let (files, files_at): (Vec<String>, Vec<Origin>) = f
        .str_list(ctx, "files")
        .into_iter()
        .map(|(s, n)| (s, n.origin.clone()))
        .unzip();
    let scripts: Vec<String> = f.str_list(ctx, "scripts").into_iter().map(|(s, _)| s).collect();
    let default_scenario = f.str(ctx, "default_scenario");
    let default_scenario_at = f.table.get("default_scenario").map(|n| n.origin.clone());
    f.finish(ctx);

    let mut options = Vec::new();
    if let Some(o) = top.names(ctx, "options") {
        for (oname, e) in &o.table.entries {
            options.extend(read_option(ctx, oname, &e.node, dir, &display_dir));
        }
    }

    let mut params = Vec::new();
    if let Some(ps) = top.names(ctx, "params") {
        for (pname, e) in &ps.table.entries {
            params.extend(read_param(ctx, pname, &e.node));
        }
    }
    top.finish(ctx);
    Some((
        Layer {
            name: name.unwrap_or_default(),
            kind: kind.unwrap_or(LayerKind::House),
            title,
            dir: dir.to_path_buf(),
            display_dir,
            files,
            files_at,
            scripts,
            default_scenario,
            default_scenario_at,
            options,
            params,
        },
        extends,
    ))
}

/// `[options.NAME]`: a layer this one offers, by path from its folder.
fn read_option(ctx: &mut Ctx, name: &str, node: &Node, dir: &Path, display_dir: &str) -> Option<OptionDecl> {
    let mut of = Fields::of(ctx, node, &format!("options.{name}"), &OPTION)?;
    let path = of.req_str(ctx, "path").unwrap_or_default();
    let description = of.str(ctx, "description").unwrap_or_default();
    of.finish(ctx);
    Some(OptionDecl {
        name: name.to_string(),
        path: normalize(&dir.join(path)),
        description,
        declared_by: display_dir.to_string(),
    })
}

/// `[params.NAME]`: a value the layer's data and scripts read, with its type, default and
/// bounds (`None` when it is not well formed: the problems are in `ctx`).
fn read_param(ctx: &mut Ctx, pname: &str, node: &Node) -> Option<Param> {
    let mut pf = Fields::of(ctx, node, &format!("params.{pname}"), &PARAM)?;
    let ty = pf.req_choice(
        ctx,
        "type",
        &[
            ("int", ParamType::Int),
            ("float", ParamType::Float),
            ("bool", ParamType::Bool),
            ("string", ParamType::String),
        ],
    );
    let default = pf.required(ctx, "default").cloned();
    let min = pf.get("min").and_then(num);
    let max = pf.get("max").and_then(num);
    let choices = pf.str_list(ctx, "choices").into_iter().map(|(s, _)| s).collect();
    let description = pf.str(ctx, "description").unwrap_or_default();
    pf.finish(ctx);
    let (Some(ty), Some(default)) = (ty, default) else {
        return None;
    };
    let ok = matches!(
        (ty, &default.value),
        (ParamType::Int, Value::Int(_))
            | (ParamType::Float, Value::Float(_) | Value::Int(_))
            | (ParamType::Bool, Value::Bool(_))
            | (ParamType::String, Value::Str(_))
    );
    if !ok {
        ctx.type_error(
            &default,
            &format!("params.{pname}.default"),
            &format!("a {}", ty.name()),
        );
        return None;
    }
    let param = Param {
        name: pname.to_string(),
        ty,
        value: default.clone(),
        default,
        min,
        max,
        choices,
        description,
    };
    if let Err(msg) = check_param_bounds(&param, &param.default) {
        ctx.error_at(&param.default, "layer::bad-param", msg, "default out of bounds");
    }
    Some(param)
}

fn num(n: &Node) -> Option<f64> {
    match n.value {
        Value::Int(i) => Some(i as f64),
        Value::Float(f) => Some(f),
        _ => None,
    }
}

/// Replace `{ param = "NAME" }` tables with the parameter's value.
fn substitute_params(node: &mut Node, layer: &Layer, sources: &Sources, problems: &mut Problems) {
    let param_name = match &node.value {
        Value::Table(t) if t.entries.len() == 1 => match t.get("param") {
            Some(Node {
                value: Value::Str(s), ..
            }) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    };
    if let Some(pname) = param_name {
        match layer.params.iter().find(|p| p.name == pname) {
            Some(p) => {
                let mut v = p.value.clone();
                v.replaced.push(node.origin.clone());
                *node = v;
            }
            None => {
                let names: Vec<&str> = layer.params.iter().map(|p| p.name.as_str()).collect();
                let mut p = Problem::new(
                    "layer::unknown-param",
                    format!("layer `{}` has no parameter `{pname}`", layer.name),
                )
                .at(node.origin.label(sources, "used here"));
                if let Some(s) = closest_key(&pname, names.iter().copied()) {
                    p = p.help(format!("did you mean `{s}`?"));
                } else {
                    p = p.help("declare it in layer.toml under [params.NAME]");
                }
                problems.push(p);
            }
        }
        return;
    }
    match &mut node.value {
        Value::Table(t) => {
            for e in t.entries.values_mut() {
                substitute_params(&mut e.node, layer, sources, problems);
            }
        }
        Value::Array(a) => {
            for n in a {
                substitute_params(n, layer, sources, problems);
            }
        }
        _ => {}
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Lexical normalisation (no symlink resolution, works for paths that do not exist).
pub fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
