//! What a save records of the mods a battle was played with, and the hash it names their files
//! by: shared by the mods, the level templates and the save format, and importing none of them.

use serde::{Deserialize, Serialize};

/// A mod as a save names it: id, version and the hash of its files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModStamp {
    /// The mod's id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// The hash of its files (`Mod::content_hash`).
    pub hash: String,
}

/// FNV-1a, 64 bits: the same on every platform and Rust version.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(PRIME))
}

/// [`fnv1a`] of any bytes, as the save writes it.
pub fn hash_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes))
}
