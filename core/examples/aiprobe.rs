// temporary probe: one AI-vs-random game
use std::sync::Arc;
use warroom_core::selfplay::{play, Brain};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let edition = &args[1];
    let ai_side = &args[2];
    let seed: u64 = args[3].parse().unwrap();
    let rounds: u32 = args.get(4).map_or(15, |r| r.parse().unwrap());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let req = warroom_core::layers::LoadRequest::new(root.join("editions"), edition.clone());
    let rules = Arc::new(
        warroom_core::rules::load(&req)
            .map_err(|e| format!("{e:?}"))
            .unwrap(),
    );
    let spec = warroom_core::soak::GameSpec {
        edition: edition.clone(),
        with: vec![],
        scenario: None,
        seed,
        rounds,
    };
    let r2 = rules.clone();
    let t = std::time::Instant::now();
    let summary = std::cell::RefCell::new(String::new());
    let last_round = std::cell::Cell::new(0u32);
    let out = play(
        &rules,
        &spec,
        &|p| {
            if r2.power_info(p).side == *ai_side {
                Brain::Ai
            } else {
                Brain::Random
            }
        },
        &mut |g, t| {
            let r = g.rules();
            if std::env::var("ROUNDS").is_ok() && g.state().round != last_round.get() {
                last_round.set(g.state().round);
                let mut line = format!("round {}:", g.state().round);
                for (i, p) in r.powers.iter().enumerate() {
                    let n: usize = r
                        .board
                        .ids()
                        .map(|sp| {
                            g.state()
                                .space(sp)
                                .units
                                .iter()
                                .filter(|u| u.owner.index() == i)
                                .count()
                        })
                        .sum();
                    line += &format!(
                        " {}={}u/{}ipc",
                        p.name,
                        n,
                        g.income(warroom_core::rules::PowerId(i as u8))
                    );
                }
                println!("{line}");
            }
            *summary.borrow_mut() = r
                .board
                .ids()
                .filter(|sp| r.board.space(*sp).capital)
                .map(|sp| {
                    format!(
                        "{}={}({})",
                        r.board.space(sp).name,
                        g.state()
                            .space(sp)
                            .controller
                            .map_or("-".into(), |p| r.power_info(p).name.clone()),
                        g.state().space(sp).units.len()
                    )
                })
                .collect::<Vec<_>>()
                .join(", ");
            if std::env::var("TRACE").is_ok() && t.brain == Brain::Ai {
                println!(
                    "r{} {}: {}  -- {}",
                    g.state().round,
                    g.rules().power_info(t.power).name,
                    t.text,
                    t.reason.as_deref().unwrap_or("")
                );
                for o in &t.output {
                    println!("     {o}");
                }
            }
        },
    );
    println!("{}", summary.borrow());
    println!("{out:?} in {:?}", t.elapsed());
}
