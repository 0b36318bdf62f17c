//! The search AI (`hard`, `master`): Portfolio Greedy Search. Each unit of the side gets a few
//! candidate declarations from a portfolio of scripts; starting from the greedy AI's plan, the
//! search swaps one unit's declaration at a time for the candidate that scores best when the
//! round is played out in the forward model (the real rules, the AI's own dice), and keeps
//! improving until its budget of simulated rounds is spent.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;

use super::choice::Choice;
use super::forward::{ForwardModel, RoundResult, Snapshot, SnapshotSources};
use super::view::{AiView, JustDeclared};
use crate::battlefield::ZoneIdx;
use crate::rules::actions::{self, ThreatMap, ViewCache};
use crate::rules::bonus;
use crate::rules::components::*;
use crate::rules::dice::CombatRng;
use crate::rules::equipment::Effect;
use crate::rules::unit::{self, UnitView};

/// How hard the search thinks: simulated rounds per decision, dice samples per plan, and how
/// many rounds each sample plays out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Simulated rounds the whole decision may spend (an iteration budget, not a clock, so the
    /// same seed always gives the same choices).
    pub rounds: u32,
    /// Dice samples every candidate is first judged on (the same samples for every candidate);
    /// the race doubles them for the candidates still in it while the budget lasts.
    pub samples: u32,
    /// Rounds each sample plays: the round declared, then greedy rounds after it.
    pub lookahead: u32,
}

impl Budget {
    /// The budget of a search AI kind; `None` for the kinds that do not search.
    pub fn of(kind: AiKind) -> Option<Self> {
        match kind {
            AiKind::Hard => Some(HARD),
            AiKind::Master => Some(MASTER),
            _ => None,
        }
    }
}

/// `hard`: at most about 100 ms a decision (95th percentile) for a 4-vs-4 side in a release
/// build. Doubling the first 300 rounds won 11 points on the ambush (issue 8, docs/ai.md).
pub const HARD: Budget = Budget { rounds: 600, samples: 8, lookahead: 2 };
/// `master`: up to about a second a decision: fifty times the rounds, four times the first
/// samples, and a round deeper. At a tenth of these rounds and half the samples it decided in a
/// quarter of a second at p95 and won 77.2% of 400 decided Roofless Temple games against greedy;
/// with these, 83.0% at 0.68 s (issue 8, eleventh pass). Most decisions settle far sooner.
pub const MASTER: Budget = Budget { rounds: 30_000, samples: 32, lookahead: 3 };

/// Enemies the portfolio offers attacks on, per unit, besides the greedy choice.
const TARGETS_PER_UNIT: usize = 3;
/// A win or a loss, in units, on top of the units left standing. Kept small: a battle that ends
/// inside the lookahead in some dice samples and not in others would otherwise swamp every
/// other difference between two plans with noise (with 100, the standard error of a gain in a
/// small battle was ten times the value of a kill).
const DECISIVE: f64 = 1.0;
/// What a fighting unit is worth before its health share is added.
const STANDING_WORTH: f64 = 0.6;
/// What its health adds, at full health.
const HEALTH_WORTH: f64 = 0.4;
/// What a unit that is down but alive is still worth (it may be stabilised or healed).
const DOWN_WORTH: f64 = 0.1;
/// The least and most a unit's fighting power may weigh against the average unit's: a unit
/// with no attack still counts, and one freak weapon does not blind the search to the rest.
const POWER_RANGE: (f64, f64) = (0.25, 4.0);
/// Most foes a unit's fighting power is worked out against: in a mass battle an evenly spaced
/// sample of them, so weighing every unit stays linear in their number.
const POWER_FOES: usize = 16;
/// A rival replaces the action in hand only when its mean gain over the same dice samples is
/// this many standard errors above zero: among several noisy rivals the luckiest would
/// otherwise win (the winner's curse), and the greedy choice is a sound default.
const CONFIDENCE: f64 = 1.5;
/// A rival is dropped from a race once it trails the leader by this many standard errors.
const PRUNE: f64 = 1.0;
/// A race between the action in hand and one rival stops once the gap is this many standard
/// errors wide: more samples would not change the choice.
const DECIDED: f64 = 3.0;
/// Most dice samples one candidate is played on, however large the budget.
const MAX_SAMPLES: usize = 512;
/// What a plan loses, in the evaluation's units (a standing unit is worth up to 1), on a dice
/// sample where the deciding unit's action comes to nothing (`action_lost`): a blow on a foe that
/// walks off first, a walk to a spot that fills. The evaluation looks only a round or two ahead,
/// where a wasted turn often costs no material yet; the tempo it gives away shows later. Measured
/// on the Great Melee (hard garrison against greedy, seeds 64..75): 0 loses 7.6% of the search's
/// declarations, 0.2 loses 3.7%, 0.5 3.7% (seeds 68..71).
const LOST_ACTION: f64 = 0.2;

/// The search's state between decisions: its private world with the rules in it.
#[derive(Default)]
pub struct Tactician {
    model: Option<ForwardModel>,
}

/// A side's joint declaration: one action per unit, in the order the side declares.
pub type Plan = Vec<(Entity, Action)>;

/// What a side's units may choose from: the search's question, asked on the main thread.
pub struct SearchRequest<'a> {
    /// The units to plan for: of one side, all awaiting, all run by this search.
    pub members: &'a [Entity],
    /// Choices made earlier in this declaration pass.
    pub just_declared: &'a JustDeclared,
    /// How hard to think.
    pub budget: Budget,
}

/// A search made ready on the main thread, owning all it needs (the forward model, a snapshot
/// of what the side may know, the greedy plan and every unit's candidates, and the AI's stream
/// as it stands), so it can run on any thread and gives the same plan wherever it runs.
pub struct SearchJob {
    model: ForwardModel,
    snapshot: Snapshot,
    queue: Vec<Entity>,
    visible: Plan,
    plan: Plan,
    candidates: Vec<Vec<Action>>,
    rng: ChaCha8Rng,
    side: usize,
    budget: Budget,
    /// Each unit's fighting power, by real entity ([`powers`]).
    power: EntityHashMap<f64>,
}

/// A finished search: the plan, the AI's stream after it, and the model to keep for next time.
pub struct SearchDone {
    /// One legal action per unit planned for.
    plan: Plan,
    /// The AI's stream, advanced by the dice samples the search drew.
    rng: ChaCha8Rng,
    model: ForwardModel,
}

impl Tactician {
    /// Plans the declarations of the requested units here and now, and returns one legal
    /// action for each.
    pub fn plan<'c>(
        &mut self,
        view: &AiView,
        units: &ViewCache<'c, 'c>,
        threats: &ThreatMap,
        request: &SearchRequest,
        rng: &mut ChaCha8Rng,
    ) -> Plan {
        let Some(job) = self.prepare(view, units, threats, request, rng.clone()) else {
            return Vec::new();
        };
        let (plan, advanced) = self.finish(job.run());
        *rng = advanced;
        plan
    }

    /// Gets a search ready to run: the portfolio, the snapshot and the model are taken here,
    /// where the battle can be read. `None` when there is nobody to plan for.
    pub fn prepare<'c>(
        &mut self,
        view: &AiView,
        units: &ViewCache<'c, 'c>,
        threats: &ThreatMap,
        request: &SearchRequest,
        rng: ChaCha8Rng,
    ) -> Option<SearchJob> {
        let side = request.members.first().and_then(|&unit| units.get(unit)).map(|unit| unit.standing.side.0)?;
        let (plan, candidates) = portfolios(view, units, threats, request.members, request.just_declared);
        Some(SearchJob {
            model: self.model.take().unwrap_or_default(),
            snapshot: Snapshot::capture(view.snapshot.iter(), sources(view), Some(side)),
            queue: view.queue.order.clone(),
            visible: visible_declarations(view, units, side, request.just_declared),
            plan,
            candidates,
            rng,
            side,
            budget: request.budget,
            power: powers(view, units),
        })
    }

    /// Keeps a finished search's model for the next decision and hands back its plan and the
    /// AI's stream as the search left it.
    pub fn finish(&mut self, done: SearchDone) -> (Plan, ChaCha8Rng) {
        self.model = Some(done.model);
        (done.plan, done.rng)
    }
}

impl SearchJob {
    /// Portfolio Greedy Search: one unit at a time, each choice raced against the one in hand.
    /// Each unit gets an equal share of what is left of the budget.
    pub fn run(self) -> SearchDone {
        let SearchJob { mut model, snapshot, queue, visible, mut plan, candidates, mut rng, side, budget, power } =
            self;
        model.load(&snapshot);
        let power = power.into_iter().filter_map(|(real, power)| Some((model.sim(real)?, power))).collect();
        let seeds: Vec<u64> = (0..budget.samples.max(1)).map(|_| rng.next_u64()).collect();
        let mut judge = Judge {
            model: &mut model,
            snapshot: &snapshot,
            queue: &queue,
            visible,
            seeds,
            rng: &mut rng,
            side,
            budget,
            spent: 0,
            power,
        };
        for at in 0..candidates.len() {
            let share = (budget.rounds.saturating_sub(judge.spent)) / (candidates.len() - at) as u32;
            let limit = judge.spent + share;
            plan[at].1 = judge.race(&plan, at, &candidates[at], limit);
        }
        SearchDone { plan, rng, model }
    }
}

fn sources<'a>(view: &'a AiView) -> SnapshotSources<'a> {
    SnapshotSources {
        state: &view.state,
        queue: &view.queue,
        index: &view.index,
        victory: &view.victory,
        sides: &view.sides,
        info: &view.info,
        ruleset: &view.ruleset,
        injuries: &view.injuries,
        battlefield: &view.battlefield,
    }
}

/// Declarations made earlier in this pass that `side` may see: its own side's always, the
/// others' only when declarations are open.
fn visible_declarations(view: &AiView, units: &ViewCache, side: usize, just_declared: &JustDeclared) -> Plan {
    let mut visible: Plan = just_declared
        .iter()
        .filter(|(unit, _)| !view.queue.secret || units.get(**unit).is_some_and(|other| other.standing.side.0 == side))
        .map(|(&unit, &action)| (unit, action))
        .collect();
    visible.sort_by_key(|(unit, _)| units.get(*unit).map_or(u32::MAX, |other| other.standing.order.0));
    visible
}

/// The mean of the paired gains of `trial` over `base` (on the samples both have) and its
/// standard error.
fn paired_gain(trial: &[f64], base: &[f64]) -> (f64, f64) {
    let gains: Vec<f64> = trial.iter().zip(base).map(|(trial, base)| trial - base).collect();
    let count = gains.len() as f64;
    if gains.is_empty() {
        return (0.0, f64::INFINITY);
    }
    let mean = gains.iter().sum::<f64>() / count;
    if count < 2.0 {
        return (mean, f64::INFINITY);
    }
    let variance = gains.iter().map(|gain| (gain - mean).powi(2)).sum::<f64>() / (count - 1.0);
    (mean, (variance / count).sqrt())
}

/// Whether `trial` beats `best` sample for sample by more than [`CONFIDENCE`] standard errors.
pub fn clearly_better(trial: &[f64], best: &[f64]) -> bool {
    let (mean, error) = paired_gain(trial, best);
    mean > 0.0 && mean > CONFIDENCE * error
}

/// Plays plans out in the forward model and scores them.
struct Judge<'a> {
    model: &'a mut ForwardModel,
    snapshot: &'a Snapshot,
    queue: &'a [Entity],
    visible: Plan,
    /// Dice samples drawn so far; more are drawn from `rng` as a race needs them.
    seeds: Vec<u64>,
    rng: &'a mut ChaCha8Rng,
    side: usize,
    budget: Budget,
    spent: u32,
    /// Each simulated unit's fighting power.
    power: EntityHashMap<f64>,
}

/// One candidate in a race and its value on each dice sample played so far.
struct Entry {
    action: Action,
    values: Vec<f64>,
}

impl Judge<'_> {
    /// Races `options` for the unit at `at` against the action it holds in `plan`, spending
    /// simulated rounds up to `limit`: every live candidate is played on the same dice samples,
    /// the clearly worse are dropped, and the samples double for the rest. The action in hand
    /// is kept unless a rival beats it by [`CONFIDENCE`] standard errors of the paired gains.
    fn race(&mut self, plan: &Plan, at: usize, options: &[Action], limit: u32) -> Action {
        let incumbent = plan[at].1;
        let mut entries: Vec<Entry> = std::iter::once(incumbent)
            .chain(options.iter().copied().filter(|&option| option != incumbent))
            .map(|action| Entry { action, values: Vec::new() })
            .collect();
        if entries.len() < 2 {
            return incumbent;
        }
        let depth = self.budget.lookahead.max(1);
        let mut alive: Vec<usize> = (0..entries.len()).collect();
        let mut wanted = self.budget.samples.max(2) as usize;
        while wanted <= MAX_SAMPLES {
            let missing: usize = alive.iter().map(|&entry| wanted - entries[entry].values.len()).sum();
            if self.spent + missing as u32 * depth > limit {
                break;
            }
            for &entry in &alive {
                let mut trial = plan.clone();
                trial[at].1 = entries[entry].action;
                let from = entries[entry].values.len();
                let values = self.score(&trial, at, from..wanted);
                entries[entry].values.extend(values);
            }
            alive = prune(&entries, alive);
            if alive.len() < 2 || settled(&entries, &alive) {
                break;
            }
            wanted *= 2;
        }
        alive
            .iter()
            .skip(1)
            .map(|&entry| (&entries[entry], paired_gain(&entries[entry].values, &entries[0].values).0))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(entry, _)| clearly_better(&entry.values, &entries[0].values))
            .map_or(incumbent, |(entry, _)| entry.action)
    }

    /// The dice sample `at`, drawn from the AI's own stream the first time it is needed.
    fn seed(&mut self, at: usize) -> u64 {
        while self.seeds.len() <= at {
            self.seeds.push(self.rng.next_u64());
        }
        self.seeds[at]
    }

    /// The plan's value on each of the dice samples `samples` (the same samples for every plan,
    /// so plans are compared on the same luck), less [`LOST_ACTION`] on each sample where the
    /// action of the unit at `at` comes to nothing this round.
    fn score(&mut self, plan: &Plan, at: usize, samples: std::ops::Range<usize>) -> Vec<f64> {
        let (unit, round) = (plan[at].0, self.snapshot.round());
        let mut declarations: Plan = self.visible.iter().chain(plan.iter()).copied().collect();
        declarations.sort_by_key(|(unit, _)| self.queue.iter().position(|other| other == unit).unwrap_or(usize::MAX));
        let mut values = Vec::with_capacity(samples.len());
        for sample in samples {
            let seed = self.seed(sample);
            // Keyed dice: each unit's rolls depend on the sample, not on what was rolled
            // before them, so two plans differ by their choices more than by reshuffled luck.
            self.model.reset(self.snapshot, CombatRng::keyed(seed), false);
            for &(unit, action) in &declarations {
                self.model.declare(unit, action);
            }
            let mut result = RoundResult { winner: None, over: false };
            for _ in 0..self.budget.lookahead.max(1) {
                result = self.model.resolve_round();
                self.spent += 1;
                if result.over {
                    break;
                }
            }
            let wasted = if self.model.lost_action(unit, round) { LOST_ACTION } else { 0.0 };
            values.push(evaluate(self.model.world_mut(), self.side, result, &self.power) - wasted);
        }
        values
    }
}

/// The live entries of a race without those clearly worse than the best so far; the first
/// (the action in hand, the yardstick) always stays.
fn prune(entries: &[Entry], alive: Vec<usize>) -> Vec<usize> {
    let mean = |entry: usize| entries[entry].values.iter().sum::<f64>() / entries[entry].values.len().max(1) as f64;
    let Some(&leader) = alive.iter().max_by(|&&a, &&b| mean(a).total_cmp(&mean(b))) else {
        return alive;
    };
    alive
        .into_iter()
        .filter(|&entry| {
            let (gain, error) = paired_gain(&entries[entry].values, &entries[leader].values);
            entry == 0 || entry == leader || gain + PRUNE * error >= 0.0
        })
        .collect()
}

/// Whether more samples cannot change the race's outcome: one rival left, and it plays out
/// exactly like the action in hand, or it is already far ahead or behind.
fn settled(entries: &[Entry], alive: &[usize]) -> bool {
    let [_, rival] = alive else {
        return false;
    };
    let (gain, error) = paired_gain(&entries[*rival].values, &entries[0].values);
    error == 0.0 || gain.abs() > DECIDED * error
}

/// The value of the simulated battle for `side`: its units' worth minus its enemies', each
/// weighed by its fighting power (`power`, by simulated entity; 1 for a unit not in it), and a
/// decisive bonus or malus once the battle is over.
pub fn evaluate(world: &mut World, side: usize, result: RoundResult, power: &EntityHashMap<f64>) -> f64 {
    let mut value = 0.0;
    let mut query = world.query::<(Entity, &SideIndex, &Status, &Stress, &Wounds, &Conditions)>();
    for (entity, unit_side, status, stress, wounds, conditions) in query.iter(world) {
        let worth = match status {
            Status::Active | Status::Reserve if !conditions.paralysed => {
                let max = (stress.max + wounds.max).max(1) as f64;
                let left = (stress.current.max(0) + wounds.current.max(0)) as f64;
                STANDING_WORTH + HEALTH_WORTH * left / max
            }
            Status::Active | Status::Reserve | Status::Incapacitated | Status::Dying => DOWN_WORTH,
            _ => 0.0,
        } * power.get(&entity).copied().unwrap_or(1.0);
        value += if unit_side.0 == side { worth } else { -worth };
    }
    match result.winner {
        Some(winner) if winner == side => value + DECISIVE,
        Some(_) => value - DECISIVE,
        None if result.over => value - DECISIVE / 2.0,
        None => value,
    }
}

/// Each unit's fighting power: the most damage one of its actions (weapon, hostile spell or
/// thrown item) may be expected to deal, averaged over its fighting enemies, relative to the
/// average unit's and kept within [`POWER_RANGE`]. Weighing units by it makes the search take
/// down first the foes that hurt most for the blows they take, and guard its own hitters
/// (Lanchester's square law: a side's strength is its damage times its staying power).
fn powers(view: &AiView, units: &ViewCache) -> EntityHashMap<f64> {
    let fighting: Vec<&UnitView> =
        units.iter().filter(|unit| unit::is_fighting(*unit.standing.status, unit.round.conditions)).collect();
    let dealt: Vec<(Entity, f64)> = units
        .iter()
        .map(|unit| {
            let enemies = fighting.iter().filter(|enemy| enemy.standing.side != unit.standing.side).count();
            // An evenly spaced sample stands for a crowd of foes.
            let step = enemies.div_ceil(POWER_FOES).max(1);
            let kinds = attack_kinds(unit);
            let (dealt, weighed) = fighting
                .iter()
                .filter(|enemy| enemy.standing.side != unit.standing.side)
                .step_by(step)
                .map(|enemy| {
                    kinds
                        .iter()
                        .map(|&(kind, _)| super::greedy::expected_damage(view, unit, enemy, kind))
                        .fold(0.0, f64::max)
                })
                .fold((0.0, 0usize), |(sum, count), dealt| (sum + dealt, count + 1));
            (unit.entity, dealt / weighed.max(1) as f64)
        })
        .collect();
    // Summed in the units' order, so the same battle always gives the same weights.
    let mean = dealt.iter().map(|(_, dealt)| dealt).sum::<f64>() / dealt.len().max(1) as f64;
    dealt
        .into_iter()
        .map(|(unit, dealt)| (unit, if mean > 0.0 { (dealt / mean).clamp(POWER_RANGE.0, POWER_RANGE.1) } else { 1.0 }))
        .collect()
}

/// The greedy plan (each unit knowing its allies' earlier choices) and every unit's portfolio.
fn portfolios<'c>(
    view: &AiView,
    units: &ViewCache<'c, 'c>,
    threats: &ThreatMap,
    members: &[Entity],
    just_declared: &JustDeclared,
) -> (Plan, Vec<Vec<Action>>) {
    let mut seen = just_declared.clone();
    let mut plan = Plan::new();
    let mut candidates = Vec::new();
    for &member in members {
        let Some(actor) = units.get(member) else {
            continue;
        };
        let choice = Choice { view, units, threats, actor, just_declared: &seen };
        let greedy = super::greedy::choose(&choice);
        let options = portfolio(&choice, greedy);
        // The greedy choice leads, when it is legal; else the first legal script's, else holding.
        let first = options.first().copied().unwrap_or(Action::simple(ActionKind::Hold));
        seen.insert(member, first);
        plan.push((member, first));
        candidates.push(options);
    }
    (plan, candidates)
}

/// One unit's candidates: the greedy choice, attacks on a few targets (the weakest first: focus
/// fire), the greedy blow aimed at each other spot, full defense, retreat, healing the most hurt
/// ally, stabilising a fallen one, and intimidation. Every one is checked by the rules' own `actions::check`.
pub fn portfolio(choice: &Choice, greedy: Action) -> Vec<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let mut options = Vec::new();
    let scripts: [&dyn Fn() -> Vec<Action>; 5] = [
        &|| {
            let found = attacks(choice);
            found.iter().flat_map(|&attack| std::iter::once(attack).chain(other_bonus_uses(choice, attack))).collect()
        },
        &|| vec![Action::simple(ActionKind::FullDefense)],
        &|| retreat(choice).into_iter().collect(),
        &|| support(choice),
        &|| intimidate(choice).into_iter().collect(),
    ];
    let greedy_script =
        || std::iter::once(greedy).chain(other_aims(greedy)).chain(other_bonus_uses(choice, greedy)).collect();
    for script in std::iter::once(&greedy_script as &dyn Fn() -> Vec<Action>).chain(scripts) {
        for action in script() {
            if !options.contains(&action) && actions::check(ctx, actor, &action, units).is_ok() {
                options.push(action);
            }
        }
    }
    options
}

/// The same aimed blow at each other spot (`A-AIM-1`): the greedy AI's rule of thumb for where
/// to aim is a guess the search can test.
fn other_aims(action: Action) -> impl Iterator<Item = Action> {
    let aimed = match action.kind {
        ActionKind::Aimed(aim) => Some(aim),
        _ => None,
    };
    AimPoint::ALL
        .into_iter()
        .filter(move |&aim| aimed.is_some_and(|aimed| aimed != aim))
        .map(move |aim| Action { kind: ActionKind::Aimed(aim), ..action })
}

/// The same attack with its Bonus Actions spent otherwise (`A-BONUS-1`): the rules' default
/// (and so the greedy AI's) is +1 to hit and +1 damage, but a unit that need not walk may strike
/// twice instead, and a shooter, whose damage the bonus does not raise, may dodge.
fn other_bonus_uses(choice: &Choice, action: Action) -> Vec<Action> {
    let Choice { view, actor, .. } = *choice;
    let Some(rules) = bonus::rules(&view.ruleset) else {
        return Vec::new();
    };
    if !bonus::is_attack(action.kind) && !matches!(action.kind, ActionKind::Throw(_)) {
        return Vec::new();
    }
    let left = bonus::left(rules, actor.round.conditions);
    let spent_now = bonus::effective(&view.ruleset, actor.round.conditions, &action);
    let uses = [
        BonusUses { extra_attack: true, ..BonusUses::default() },
        BonusUses { hit: 1, dodge: 1, ..BonusUses::default() },
        BonusUses { damage: 1, dodge: 1, ..BonusUses::default() },
    ];
    uses.into_iter()
        .filter(|uses| bonus::cost(rules, uses) <= left)
        .map(|uses| Action { bonus: Some(uses), ..action })
        .filter(|other| bonus::effective(&view.ruleset, actor.round.conditions, other) != spent_now)
        .collect()
}

/// What is left of a unit to take down.
fn remaining(unit: &UnitView) -> i32 {
    unit.body.stress.current.max(0) + unit.body.wounds.current.max(0) + 1
}

/// The best weapon, spell or thrown attack on each of the weakest enemies in reach this round.
fn attacks(choice: &Choice) -> Vec<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let field = &view.battlefield;
    let allowance = unit::movement_allowance(
        &view.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        ActionKind::Attack,
    );
    let kinds = attack_kinds(actor);
    let mut enemies: Vec<&UnitView> = units
        .iter()
        .filter(|enemy| {
            enemy.standing.side != actor.standing.side
                && unit::is_fighting(*enemy.standing.status, enemy.round.conditions)
        })
        .filter(|enemy| {
            field.distance(actor.standing.zone.0, enemy.standing.zone.0)
                <= allowance + 1 + kinds.iter().map(|k| k.1).max().unwrap_or(0)
        })
        .collect();
    // Pinned enemies first (one of ours is in their reach, or they stand where a blow lands
    // without a walk): an unpinned one usually walks off before a blade reaches it, and the
    // blow is lost. Then the weakest first: focus fire.
    let reach = actions::weapon_range(actor.arms.loadout.usable_weapon(actor.round.conditions).1);
    enemies.sort_by_key(|enemy| {
        let stays = field.distance(actor.standing.zone.0, enemy.standing.zone.0) <= reach
            || super::greedy::engaged(view, units, enemy, *actor.standing.side);
        (!stays, remaining(enemy), enemy.standing.order.0)
    });
    let mut found = Vec::new();
    for enemy in enemies {
        if found.len() >= TARGETS_PER_UNIT {
            break;
        }
        let attack = kinds.iter().find_map(|&(kind, range)| {
            let target_zone = enemy.standing.zone.0;
            let spots: Vec<Option<ZoneIdx>> = std::iter::once(None)
                .chain(
                    field
                        .within(target_zone, range)
                        .map(|zone| (field.distance(actor.standing.zone.0, zone), zone))
                        .filter(|&(distance, _)| distance <= allowance)
                        .map(|(_, zone)| Some(zone)),
                )
                .collect();
            spots.into_iter().find_map(|move_to| {
                let action = Action::new(kind, Some(enemy.entity), move_to);
                // The same refinements the greedy AI gives its own attack (an aim, an
                // execution, a swarm), so a rival target is not judged with a plainer blow.
                let guarded = super::greedy::refine_attack(choice, guard(choice, action));
                // And the same step out of reach afterwards, where movement splits (`C-MOVE-1`).
                let guarded = super::greedy::step_away_after(choice, guarded);
                (actions::check(ctx, actor, &guarded, units).is_ok()).then_some(guarded)
            })
        });
        found.extend(attack);
    }
    found
}

/// The unit's damaging actions and their ranges: its weapon, its hostile spells and the items
/// it has left to throw.
fn attack_kinds(actor: &UnitView) -> Vec<(ActionKind, u32)> {
    let mut kinds: Vec<(ActionKind, u32)> =
        vec![(ActionKind::Attack, actions::weapon_range(actor.arms.loadout.usable_weapon(actor.round.conditions).1))];
    kinds.extend(
        actor
            .magic
            .spells
            .0
            .iter()
            .enumerate()
            .filter(|(_, (_, spell))| spell.effect.is_hostile())
            .map(|(at, (_, spell))| (ActionKind::Cast(at), spell.range)),
    );
    kinds.extend(
        actor
            .arms
            .inventory
            .0
            .iter()
            .enumerate()
            .filter(|(_, stack)| stack.item.thrown && stack.count > 0)
            .map(|(at, stack)| (ActionKind::Throw(at), stack.item.range)),
    );
    kinds
}

/// A weapon attack that walks into a Reposte becomes a defensive attack where the rules offer one.
fn guard(choice: &Choice, action: Action) -> Action {
    let Choice { view, threats, actor, .. } = *choice;
    if action.kind != ActionKind::Attack || action.move_to.is_none() {
        return action;
    }
    let provokes = !actions::repostes_on_path(view.ctx(), threats, actor, &action).is_empty();
    if provokes && actions::offered(&view.ruleset, ActionKind::DefensiveAttack) {
        Action { kind: ActionKind::DefensiveAttack, ..action }
    } else {
        action
    }
}

/// The reachable spot farthest from every fighting enemy (a disengage where the rules have one).
fn retreat(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let field = &view.battlefield;
    let allowance = unit::action_allowance(
        &view.ruleset,
        *actor.body.speed,
        *actor.standing.status,
        actor.round.conditions,
        &Action::simple(ActionKind::Move),
    );
    let enemies: Vec<ZoneIdx> = units
        .iter()
        .filter(|enemy| {
            enemy.standing.side != actor.standing.side
                && unit::is_fighting(*enemy.standing.status, enemy.round.conditions)
        })
        .map(|enemy| enemy.standing.zone.0)
        .collect();
    let nearest = |zone: ZoneIdx| enemies.iter().map(|&enemy| field.distance(zone, enemy)).min().unwrap_or(0);
    let here = nearest(actor.standing.zone.0);
    let (distance, zone) = field
        .within(actor.standing.zone.0, allowance)
        .filter(|&zone| zone != actor.standing.zone.0)
        .filter(|&zone| field.zone(zone).capacity.is_none_or(|capacity| (view.index.count(zone) as u32) < capacity))
        .map(|zone| (nearest(zone), zone))
        .max_by_key(|&(distance, zone)| (distance, std::cmp::Reverse(zone)))?;
    if distance <= here {
        return None;
    }
    let kind =
        if actions::offered(&view.ruleset, ActionKind::Disengage) { ActionKind::Disengage } else { ActionKind::Move };
    Some(Action::new(kind, None, Some(zone)))
}

/// Restoring the most hurt ally in reach, or stabilising a fallen one.
fn support(choice: &Choice) -> Vec<Action> {
    let Choice { view, units, actor, .. } = *choice;
    let ctx = view.ctx();
    let mut kinds: Vec<ActionKind> = actor
        .magic
        .spells
        .0
        .iter()
        .enumerate()
        .filter(|(_, (_, spell))| matches!(spell.effect, Effect::RestoreStress { .. } | Effect::RestoreWounds { .. }))
        .map(|(at, _)| ActionKind::Cast(at))
        .collect();
    kinds.extend(
        actor
            .arms
            .inventory
            .0
            .iter()
            .enumerate()
            .filter(|(_, stack)| !stack.item.thrown && !stack.item.effect.is_hostile())
            .map(|(at, _)| ActionKind::UseItem(at)),
    );
    let mut allies: Vec<&UnitView> = units
        .iter()
        .filter(|ally| ally.standing.side == actor.standing.side && ally.standing.status.on_field())
        .collect();
    allies.sort_by_key(|ally| (remaining(ally), ally.standing.order.0));
    let mut found = Vec::new();
    if let Some(action) = allies.iter().find_map(|ally| {
        kinds.iter().find_map(|&kind| {
            let action = Action::new(kind, Some(ally.entity), None);
            actions::check(ctx, actor, &action, units).is_ok().then_some(action)
        })
    }) {
        found.push(action);
    }
    if let Some(action) = allies.iter().filter(|ally| ally.standing.status.is_down()).find_map(|ally| {
        let action = Action::new(ActionKind::Stabilize, Some(ally.entity), None);
        actions::check(ctx, actor, &action, units).is_ok().then_some(action)
    }) {
        found.push(action);
    }
    found
}

/// An Intimidation check on the weakest enemy in reach that checks morale.
fn intimidate(choice: &Choice) -> Option<Action> {
    let Choice { view, units, actor, .. } = *choice;
    if !actions::offered(&view.ruleset, ActionKind::Intimidate) {
        return None;
    }
    let mut enemies: Vec<&UnitView> = units
        .iter()
        .filter(|enemy| {
            enemy.standing.side != actor.standing.side
                && enemy.body.checks_morale
                && unit::is_fighting(*enemy.standing.status, enemy.round.conditions)
        })
        .collect();
    enemies.sort_by_key(|enemy| (remaining(enemy), enemy.standing.order.0));
    enemies.into_iter().find_map(|enemy| {
        let action = Action::new(ActionKind::Intimidate, Some(enemy.entity), None);
        actions::check(view.ctx(), actor, &action, units).is_ok().then_some(action)
    })
}

/// The `easy` AI: the greedy choice, except now and then any legal action at all.
pub fn easy_choice(choice: &Choice, rng: &mut ChaCha8Rng) -> Action {
    /// How often the easy AI blunders.
    const BLUNDER_CHANCE: f64 = 0.3;
    if rng.random_bool(BLUNDER_CHANCE) { super::random::choose(choice, rng) } else { super::greedy::choose(choice) }
}
