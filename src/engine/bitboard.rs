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
    /// Every member moved `n` places up (towards higher indices), `0 < n < 64`; members moved
    /// past the capacity are lost.
    fn shift_up(self, n: usize) -> Self;
    /// Every member moved `n` places down, `0 < n < 64`; members moved below 0 are lost.
    fn shift_down(self, n: usize) -> Self;

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
    #[inline]
    fn shift_up(self, n: usize) -> Self {
        self << n
    }
    #[inline]
    fn shift_down(self, n: usize) -> Self {
        self >> n
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
    #[inline]
    fn shift_up(self, n: usize) -> Self {
        let mut out = [0; WIDE_WORDS];
        for (i, word) in out.iter_mut().enumerate() {
            *word = self.0[i] << n;
            if i > 0 {
                *word |= self.0[i - 1] >> (64 - n);
            }
        }
        Wide(out)
    }
    #[inline]
    fn shift_down(self, n: usize) -> Self {
        let mut out = [0; WIDE_WORDS];
        for (i, word) in out.iter_mut().enumerate() {
            *word = self.0[i] >> n;
            if i + 1 < WIDE_WORDS {
                *word |= self.0[i + 1] << (64 - n);
            }
        }
        Wide(out)
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
        for n in [1, 9, 19, 63] {
            for index in [0, 5, 63, 64, B::CAPACITY - 64] {
                assert_eq!(B::single(index).shift_up(n), B::single(index + n));
                assert_eq!(B::single(index + n).shift_down(n), B::single(index));
            }
        }
        assert!(B::single(B::CAPACITY - 1).shift_up(1).is_empty());
        assert!(B::single(0).shift_down(1).is_empty());
    }

    #[test]
    fn both_widths_behave_alike() {
        exercise::<u128>();
        exercise::<Wide>();
    }
}
