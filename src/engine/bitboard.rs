//! Square sets as bit sets, one bit per square, index `rank * width + file`.
//!
//! Two widths: `u128` holds every board up to 11x11 (121 squares) and is what 9x9 and 11x11
//! variants use; [`Wide`] holds up to 384 squares, enough for 19x19 (361). The engine is generic
//! over [`Bits`] and picks the width once, when it is built, so the hot loops are compiled once
//! per width with no dispatch inside them.
//!
//! There is no padding column: sliding moves use precomputed rays and the first blocker on a ray
//! (lowest set bit going up, highest going down), which needs no shifts that could wrap a row.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices, as a fixed-size bit set.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the type can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only `index`. `index` must be below [`Bits::CAPACITY`].
    fn single(index: usize) -> Self;
    /// Whether `index` is in the set.
    fn has(self, index: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The number of members.
    fn count(self) -> u32;
    /// The smallest member; the set must not be empty.
    fn lowest(self) -> usize;
    /// The largest member; the set must not be empty.
    fn highest(self) -> usize;

    /// Whether the set has any member.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Adds `index`.
    #[inline]
    fn set(&mut self, index: usize) {
        *self |= Self::single(index);
    }

    /// Removes `index`.
    #[inline]
    fn clear(&mut self, index: usize) {
        *self &= !Self::single(index);
    }

    /// The members, lowest first.
    #[inline]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// The members of a [`Bits`] set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0.clear(index);
        Some(index)
    }
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const EMPTY: Self = 0;

    #[inline]
    fn single(index: usize) -> Self {
        1u128 << index
    }
    #[inline]
    fn has(self, index: usize) -> bool {
        (self >> index) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline]
    fn highest(self) -> usize {
        127 - self.leading_zeros() as usize
    }
}

/// Words in a [`Wide`] set: 6 x 64 = 384 bits, enough for 19x19.
pub const WIDE_WORDS: usize = 6;

/// A bit set for boards larger than 11x11 (up to 19x19).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Wide(pub [u64; WIDE_WORDS]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline]
    fn bitand(mut self, other: Wide) -> Wide {
        self &= other;
        self
    }
}
impl BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(mut self, other: Wide) -> Wide {
        self |= other;
        self
    }
}
impl BitXor for Wide {
    type Output = Wide;
    #[inline]
    fn bitxor(mut self, other: Wide) -> Wide {
        self ^= other;
        self
    }
}
impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(mut self) -> Wide {
        for word in &mut self.0 {
            *word = !*word;
        }
        self
    }
}
impl BitAndAssign for Wide {
    #[inline]
    fn bitand_assign(&mut self, other: Wide) {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word &= other;
        }
    }
}
impl BitOrAssign for Wide {
    #[inline]
    fn bitor_assign(&mut self, other: Wide) {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word |= other;
        }
    }
}
impl BitXorAssign for Wide {
    #[inline]
    fn bitxor_assign(&mut self, other: Wide) {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word ^= other;
        }
    }
}

impl Bits for Wide {
    const CAPACITY: usize = 64 * WIDE_WORDS;
    const EMPTY: Self = Wide([0; WIDE_WORDS]);

    #[inline]
    fn single(index: usize) -> Self {
        let mut set = Self::EMPTY;
        set.0[index / 64] = 1 << (index % 64);
        set
    }
    #[inline]
    fn has(self, index: usize) -> bool {
        (self.0[index / 64] >> (index % 64)) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for (i, &word) in self.0.iter().enumerate() {
            if word != 0 {
                return i * 64 + word.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline]
    fn highest(self) -> usize {
        for (i, &word) in self.0.iter().enumerate().rev() {
            if word != 0 {
                return i * 64 + 63 - word.leading_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>() {
        let mut set = B::EMPTY;
        assert!(set.is_empty());
        for index in [0, 5, 64, 100, B::CAPACITY - 1] {
            set.set(index);
        }
        assert_eq!(set.count(), 5);
        assert_eq!(set.lowest(), 0);
        assert_eq!(set.highest(), B::CAPACITY - 1);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![0, 5, 64, 100, B::CAPACITY - 1]
        );
        set.clear(0);
        assert!(!set.has(0));
        assert_eq!(set.lowest(), 5);
        assert_eq!((!B::EMPTY).count() as usize, B::CAPACITY);
    }

    #[test]
    fn both_widths_behave_alike() {
        exercise::<u128>();
        exercise::<Wide>();
    }
}
