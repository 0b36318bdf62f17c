//! Orders for many units at once, for mass battles where a player commands dozens: "repeat last
//! round's orders" and "give this order to all my units". A standing order declares for each of
//! the player's units in turn, through the same options and checks as a click would, and stops
//! at the first unit it cannot serve, saying why.

use std::collections::HashMap;

use super::spine::GameSystems;
use bevy::prelude::*;

use super::model::battle_ui::{BattleUi, DeclarationOptions, Draft, OptionEntry, UiCommand};
use super::model::session::BattleStarted;
use super::online::Declarer;
use crate::rules::DeclarationQueue;
use crate::rules::components::{Action, ActionKind, Declared};

/// What each unit declared last: the order "repeat" gives it again.
#[derive(Resource, Debug, Default)]
pub struct LastOrders(pub HashMap<Entity, Action>);

/// The order declaring for a player's units, while one stands.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct StandingOrder {
    /// The side whose units it declares for.
    pub side: Option<usize>,
    /// What it declares.
    pub order: Option<Order>,
    /// The unit it declared for last, whose declaration is on its way to the rules.
    pub issued: Option<Entity>,
    /// Whether that declaration was written this frame, so the options still show its unit.
    pub just_issued: bool,
}

/// A standing order's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Each unit declares what it did last round.
    Repeat,
    /// Each unit declares this kind at this target (moving where the first one moved, when it can).
    Same(Action),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastOrders>()
        .init_resource::<StandingOrder>()
        .add_systems(Update, (remember_orders, follow_standing_order).chain().in_set(GameSystems::Answers));
}

/// Keeps each unit's latest declaration; a new battle forgets them all.
fn remember_orders(
    mut started: MessageReader<BattleStarted>,
    declared: Query<(Entity, &Declared), Changed<Declared>>,
    mut last: ResMut<LastOrders>,
    mut standing: ResMut<StandingOrder>,
) {
    if started.read().count() > 0 {
        last.0.clear();
        *standing = StandingOrder::default();
    }
    for (unit, declared) in &declared {
        if let Some(action) = declared.action {
            last.0.insert(unit, action);
        }
    }
}

/// What the standing order system reads besides its own state.
#[derive(bevy::ecs::system::SystemParam)]
struct OrderView<'w, 's> {
    commands: MessageReader<'w, 's, UiCommand>,
    options: Res<'w, DeclarationOptions>,
    queue: Res<'w, DeclarationQueue>,
    last: Res<'w, LastOrders>,
    names: Query<'w, 's, &'static Name>,
}

/// Starts a standing order on the player's command, then declares for each of their units in
/// turn while it can.
fn follow_standing_order(
    mut view: OrderView,
    mut standing: ResMut<StandingOrder>,
    mut ui: ResMut<BattleUi>,
    mut chosen: Declarer,
) {
    if !view.queue.open {
        *standing = StandingOrder::default();
        return;
    }
    let commands: Vec<UiCommand> = view.commands.read().copied().collect();
    if ui.curtain.is_none() && ui.confirm.is_none() {
        for command in commands {
            start_order(command, &view.options, &mut standing, &mut ui, &mut chosen);
        }
    }
    if standing.issued.is_some() && standing.issued == view.options.unit {
        // Declared this very frame (order-all's first unit): the rules record it next.
        if standing.just_issued {
            standing.just_issued = false;
            return;
        }
    }
    let Some(order) = standing.order else {
        return;
    };
    let Some(unit) = view.options.unit else {
        return;
    };
    if view.options.side != standing.side || ui.curtain.is_some() {
        // Another player's unit declares now; the order waits for its own side's next one.
        return;
    }
    if standing.issued == Some(unit) {
        // The rules turned its declaration down (it would have left the queue otherwise).
        *standing = StandingOrder::default();
        ui.hint = Some(format!("{}'s order was not accepted: choose one.", unit_name(&view.names, unit)));
        return;
    }
    let previous = view.last.0.get(&unit).copied();
    match matching_option(&view.options, order, previous) {
        Some(entry) => {
            chosen.declare(unit, entry.action);
            standing.issued = Some(unit);
            ui.draft = Draft::default();
        }
        None => {
            *standing = StandingOrder::default();
            let why = match (order, previous) {
                (Order::Repeat, None) => "has no order from last round",
                (Order::Repeat, Some(_)) => "cannot repeat last round's order",
                (Order::Same(_), _) => "cannot take that order",
            };
            ui.hint = Some(format!("{} {why}: choose one.", unit_name(&view.names, unit)));
        }
    }
}

/// Repeat and order-all start a standing order for the declaring unit's side; order-all
/// declares the drafted option for the declaring unit first.
fn start_order(
    command: UiCommand,
    options: &DeclarationOptions,
    standing: &mut StandingOrder,
    ui: &mut BattleUi,
    chosen: &mut Declarer,
) {
    let Some(unit) = options.unit else {
        return;
    };
    match command {
        UiCommand::RepeatOrders => {
            *standing = StandingOrder { side: options.side, order: Some(Order::Repeat), ..default() };
            ui.hint = None;
        }
        UiCommand::OrderAll => match options.drafted(&ui.draft) {
            Some(entry) => {
                chosen.declare(unit, entry.action);
                *standing = StandingOrder {
                    side: options.side,
                    order: Some(Order::Same(entry.action)),
                    issued: Some(unit),
                    just_issued: true,
                };
                ui.draft = Draft::default();
                ui.hint = None;
            }
            None => ui.hint = Some("Draft an order first, then give it to all your units.".into()),
        },
        _ => {}
    }
}

/// The declaring unit's option that serves `order`: last round's action again, or the same kind
/// at the same target, moving to the same place when it can, else in place, else anywhere.
pub fn matching_option(options: &DeclarationOptions, order: Order, previous: Option<Action>) -> Option<&OptionEntry> {
    let entries = || options.kinds.iter().flat_map(|(_, entries)| entries.iter());
    match order {
        Order::Repeat => {
            let previous = previous?;
            entries().find(|entry| entry.action == previous)
        }
        Order::Same(template) => {
            let alike =
                |entry: &&OptionEntry| entry.action.kind == template.kind && entry.action.target == template.target;
            let moving = template.kind == ActionKind::Move;
            entries()
                .filter(alike)
                .find(|entry| entry.action.move_to == template.move_to)
                .or_else(|| entries().filter(alike).find(|entry| !moving && entry.action.move_to.is_none()))
                .or_else(|| entries().find(|entry| !moving && alike(entry)))
        }
    }
}

fn unit_name(names: &Query<&Name>, unit: Entity) -> String {
    names.get(unit).map_or_else(|_| "This unit".to_string(), |name| name.as_str().to_string())
}
