//! The transposition table: one table shared by every search thread, without locks.
//!
//! Each slot is two atomic words, the key XOR the data and the data, so that a slot torn by two
//! threads writing at once reads as a miss rather than as another position's entry (the
//! "lockless hashing" of Hyatt and Mann, 2002).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One entry: the best move found (square indices), the depth searched, the score and its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub from: u16,
    pub to: u16,
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.from & 0x1ff)
            | u64::from(self.to & 0x1ff) << 9
            | u64::from(self.depth) << 18
            | bound << 26
            | u64::from(self.score as u32) << 32
    }

    fn unpack(data: u64) -> Entry {
        let bound = match (data >> 26) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Entry {
            from: (data & 0x1ff) as u16,
            to: ((data >> 9) & 0x1ff) as u16,
            depth: ((data >> 18) & 0xff) as u8,
            bound,
            score: (data >> 32) as u32 as i32,
        }
    }
}

/// A transposition table: what searches have learnt about positions, kept from one search to
/// the next when the caller keeps the table ([`super::search_with`]), as an engine does between
/// the moves of a game. `2^bits` slots of 16 bytes.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    /// A table of size 0 stores nothing: a search without a table, for comparison.
    enabled: bool,
    megabytes: usize,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("megabytes", &self.megabytes)
            .field("slots", &self.slots.len())
            .finish()
    }
}

/// A table's memory could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a transposition table of {megabytes} MiB: not enough memory")]
pub struct TableError {
    /// The size asked for.
    pub megabytes: usize,
}

/// The slots of a table of about `megabytes` MiB (1 to 4096), 16 bytes each: a power of two.
fn slots_for(megabytes: usize) -> usize {
    let wanted = (megabytes.clamp(1, 4096) << 20) / 16;
    let bits = usize::BITS - 1 - wanted.max(1).leading_zeros();
    1usize << bits
}

impl Table {
    /// A table of about `megabytes` MiB (at most 4096); 0 gives a table that stores nothing.
    /// All of its memory is written here, so that a search that uses it does not pay for it.
    /// Where that much memory cannot be had, a table of 1 MiB (and where not even that, the
    /// allocation aborts, as any other would).
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).unwrap_or_else(|_| {
            let len = slots_for(1);
            Table::filled(Vec::with_capacity(len), len, 1)
        })
    }

    /// [`Table::new`], or an error where the memory cannot be had (the allocator refuses it:
    /// a limit on the process's memory, or more than the machine has), so that an engine can
    /// answer a host's `setoption name Hash` with an error instead of aborting.
    ///
    /// # Errors
    /// [`TableError`] when the allocation fails.
    pub fn try_new(megabytes: usize) -> Result<Table, TableError> {
        let len = slots_for(megabytes);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(len)
            .map_err(|_| TableError { megabytes })?;
        Ok(Table::filled(slots, len, megabytes))
    }

    /// A table of `len` slots (a power of two) in `slots`, which has room for them.
    fn filled(mut slots: Vec<[AtomicU64; 2]>, len: usize, megabytes: usize) -> Table {
        huge_pages(&mut slots);
        slots.extend((0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Table {
            slots,
            mask: len - 1,
            enabled: megabytes > 0,
            megabytes,
        }
    }

    /// The size asked for, in MiB.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// How full the table is, in thousandths, from its first thousand slots (UCI's
    /// `hashfull`): entries of earlier searches count, as they are used.
    pub fn permille_full(&self) -> u32 {
        if !self.enabled {
            return 0;
        }
        let sample = self.slots.len().min(1000);
        let filled = self.slots[..sample]
            .iter()
            .filter(|slot| slot[1].load(Ordering::Relaxed) != 0)
            .count();
        (filled * 1000 / sample.max(1)) as u32
    }

    /// Forgets every entry (a new game), on all cores: a table of gigabytes is cleared in a
    /// fraction of the time one thread would take.
    pub fn clear(&self) {
        use rayon::prelude::*;
        self.slots
            .par_iter()
            .with_min_len(1 << 14)
            .for_each(|slot| {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            });
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        if !self.enabled {
            return None;
        }
        let slot = &self.slots[key as usize & self.mask];
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(data))
    }

    /// Asks the processor to bring the slot of `key` into the cache, without waiting for it:
    /// a probe that follows soon after then does not stall on memory.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = &self.slots[key as usize & self.mask];
            // SAFETY: SSE, which the instruction needs, is part of every x86-64 processor; a
            // prefetch is a hint that reads nothing the program sees and cannot fault, and the
            // pointer is to a slot of the table's own live allocation.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    slot.as_ptr().cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores `entry` for `key`, replacing what was there unless that was deeper and of the same
    /// position.
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        if !self.enabled {
            return;
        }
        let slot = &self.slots[key as usize & self.mask];
        if let Some(old) = self.probe(key) {
            if old.depth > entry.depth && entry.bound != Bound::Exact {
                return;
            }
        }
        let data = entry.pack();
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

/// Asks the kernel to back the table's memory, not yet touched, with huge pages (2 MiB on
/// x86-64): a probe lands anywhere in tens of megabytes, which with 4 KiB pages costs an
/// address-cache (TLB) miss on top of the cache miss, and zeroing the table faults in
/// thousands of small pages (docs/performance.md measures both). Where the kernel says no
/// (or on another system), the table works as before.
#[cfg(target_os = "linux")]
fn huge_pages(slots: &mut Vec<[AtomicU64; 2]>) {
    const HUGE: usize = 2 << 20;
    let start = slots.as_mut_ptr() as usize;
    let end = start + slots.capacity() * std::mem::size_of::<[AtomicU64; 2]>();
    // The whole huge pages inside the allocation.
    let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if first < last {
        // SAFETY: the range lies inside the vector's own allocation, which nothing reads yet;
        // MADV_HUGEPAGE is advice about how to back it and changes no content. An error (an
        // old kernel, huge pages off) leaves the memory as it was, so it is ignored.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            )
        };
    }
}

#[cfg(not(target_os = "linux"))]
fn huge_pages(_slots: &mut Vec<[AtomicU64; 2]>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_the_packing() {
        for score in [0, 1, -1, 999_950, -999_950, 12345, -54321] {
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                let entry = Entry {
                    from: 360,
                    to: 17,
                    depth: 63,
                    bound,
                    score,
                };
                assert_eq!(Entry::unpack(entry.pack()), entry);
            }
        }
    }

    #[test]
    fn a_stored_entry_is_found_and_others_miss() {
        let table = Table::new(1);
        let entry = Entry {
            from: 3,
            to: 4,
            depth: 2,
            bound: Bound::Exact,
            score: -7,
        };
        table.store(0xDEAD_BEEF, entry);
        assert_eq!(table.probe(0xDEAD_BEEF), Some(entry));
        assert_eq!(table.probe(0xDEAD_BEEF ^ (1 << 40)), None);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF), None);
    }
}
