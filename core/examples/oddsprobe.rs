use std::path::Path;
use std::sync::Arc;
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, parse_units, Spec};
use warroom_core::rules;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (edition, battle, n): (&str, &str, usize) = (&args[1], &args[2], args[3].parse().unwrap());
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let r = Arc::new(rules::load(&LoadRequest::new(root.join("editions"), edition)).unwrap());
    let (a, d) = battle.split_once(" vs ").unwrap();
    let mut spec = Spec::new();
    spec.attackers = parse_units(&r, a).unwrap();
    spec.defenders = parse_units(&r, d).unwrap();
    let q = spec.question(&r).unwrap();
    let t = std::time::Instant::now();
    let mut w = 0.0;
    for _ in 0..n { w += odds::exact(&q, 5).unwrap().attacker_wins.value; }
    eprintln!("{:.3} ms per answer ({w})", t.elapsed().as_secs_f64() * 1000.0 / n as f64);
}
