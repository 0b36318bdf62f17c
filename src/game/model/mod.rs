//! The window game's model: the data that the session, the controls, the board and the panels
//! share (which screen shows, the seats, the pace, the battle UI and its commands, the replay
//! in view). Its files import nothing else of the game, so any plugin may read them and none
//! of them reaches back up.

pub mod battle_read;
pub mod battle_ui;
pub mod board;
pub mod launch;
pub mod pace;
pub mod playback;
pub mod player_action;
pub mod playing_count;
pub mod screen;
pub mod session;
pub mod settings;
