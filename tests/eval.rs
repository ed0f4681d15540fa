//! The evaluation's terms, counted on positions built by hand: what each term sees, and what it
//! must not see.

use tafl::engine::Engine;
use tafl::game::notation::parse_position;
use tafl::search::eval::{terms_of, TERM_NAMES};
use tafl::{Side, Variant};

/// The value of the term called `name` in `position` (rows from the top rank down).
fn term(variant: &str, position: &str, name: &str) -> f64 {
    let engine = Engine::new(&Variant::bundled(variant).unwrap().rules).unwrap();
    let position = parse_position(&engine, position, Side::Attackers).unwrap();
    let terms = terms_of(&engine, &position).unwrap();
    let index = TERM_NAMES.iter().position(|&n| n == name).unwrap();
    terms.values()[index]
}

#[test]
fn three_attackers_on_the_diagonal_seal_a_corner() {
    // Brandubh: attackers on a3, b2 and c1 wall the corner a1 off from the king on d4.
    let sealed = "/7/7/7/3K3/t6/1t5/2t4/";
    assert_eq!(term("brandubh", sealed, "sealed"), 1.0);
    assert_eq!(term("brandubh", sealed, "seal"), 3.0);
    // Walled off from the king: the 3 squares behind the attackers (a1, a2, b1).
    assert_eq!(term("brandubh", sealed, "walled"), 3.0);
    // Without b2 the king walks in by b3-b2-b1: no corner is sealed, two seal squares held.
    let open = "/7/7/7/3K3/t6/7/2t4/";
    assert_eq!(term("brandubh", open, "sealed"), 0.0);
    assert_eq!(term("brandubh", open, "seal"), 2.0);
}

#[test]
fn the_kings_own_pieces_do_not_seal_a_corner() {
    // Defenders on a3, b2 and c1 would step aside: the corner stays open to the king.
    let position = "/7/7/7/3K3/T6/1T5/2T4/";
    assert_eq!(term("brandubh", position, "sealed"), 0.0);
    assert_eq!(term("brandubh", position, "seal"), 0.0);
}

#[test]
fn a_wall_seals_every_corner_behind_it_and_no_step_wraps_round_a_row() {
    // A file of attackers on f shuts the king on g4 off from a1 and a7; he still has g1 and
    // g7 up and down his own file. A step right from g4 that wrapped round to a5 would open
    // both far corners.
    let position = "/5t1/5t1/5t1/5tK/5t1/5t1/5t1/";
    assert_eq!(term("brandubh", position, "sealed"), 2.0);
    // Everything west of the wall: 35 squares.
    assert_eq!(term("brandubh", position, "walled"), 35.0);
}

#[test]
fn an_edge_escape_has_no_corner_to_seal() {
    // Linnaeus' king escapes to any edge square: the region is too large to wall off square by
    // square, so neither term counts.
    let position = "/9/9/2t6/1t7/t3K4/9/9/9/9/";
    assert_eq!(term("linnaeus", position, "sealed"), 0.0);
    assert_eq!(term("linnaeus", position, "seal"), 0.0);
}

#[test]
fn distance_counts_the_kings_rook_moves_to_the_nearest_corner() {
    // Brandubh, the king alone on d4: d4-d1 then d1-a1 (or g1, a7, g7): two moves. Counted
    // from the attackers' side, positive: a far king is good for them.
    assert_eq!(term("brandubh", "/7/7/7/3K3/7/7/7/", "distance"), 2.0);
    // On a1's file he is one move from it.
    assert_eq!(term("brandubh", "/7/7/7/K6/7/7/7/", "distance"), 1.0);
    // Attackers on c4 and e4, d3 and d5 box him in: no rook move at all, so as far as counted
    // (5).
    assert_eq!(term("brandubh", "/7/7/3t3/2tKt2/3t3/7/7/", "distance"), 5.0);
    // Three attackers round d4 leave one way out (down the d-file to d1) and one more move to
    // a1 or g1.
    assert_eq!(term("brandubh", "/7/7/3t3/2tKt2/7/7/7/", "distance"), 2.0);
}

#[test]
fn shut_counts_only_when_every_corner_is_closed_to_the_king() {
    // Brandubh: a3, b2, c1 close a1 only; three corners stay open.
    assert_eq!(term("brandubh", "/7/7/7/3K3/t6/1t5/2t4/", "shut"), 0.0);
    // Attackers on the four sides of the king on d4 close all four corners at once.
    let boxed = "/7/7/3t3/2tKt2/3t3/7/7/";
    assert_eq!(term("brandubh", boxed, "sealed"), 4.0);
    assert_eq!(term("brandubh", boxed, "shut"), 1.0);
    // One side open (d3) opens every corner again; the diagonals never mattered.
    let gap = "/7/7/2ttt2/2tKt2/2t1t2/7/7/";
    assert_eq!(term("brandubh", gap, "shut"), 0.0);
}

#[test]
fn minority_counts_the_smaller_sides_losses_but_not_the_king() {
    // Copenhagen starts 24 attackers against 12 defenders and the king: nothing lost, 0.
    let copenhagen = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    assert_eq!(term("copenhagen", copenhagen, "minority"), 0.0);
    // One defender taken (f4): +1, counted from the attackers' side like the material it was.
    let one_down = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t9t/11/5t5/3ttttt3/";
    assert_eq!(term("copenhagen", one_down, "minority"), 1.0);
    // An attacker taken changes nothing: they are the larger side.
    let attacker_down = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3tt1tt3/";
    assert_eq!(term("copenhagen", attacker_down, "minority"), 0.0);
}

#[test]
fn cordon_counts_the_ways_out_of_the_attackers_ring() {
    // Copenhagen: a diamond of eight attackers round the king (f6) and a defender (f7) walls
    // them off from the edge, diagonal links included, since pieces move orthogonally.
    let closed = "/11/11/11/5t5/4tTt4/3t1K1t3/4t1t4/5t5/11/11/11/";
    assert_eq!(term("copenhagen", closed, "cordon"), 0.0);
    // Without f8 there is one way out; without h6 as well, two. Counted against the attackers.
    let one_gap = "/11/11/11/11/4tTt4/3t1K1t3/4t1t4/5t5/11/11/11/";
    assert_eq!(term("copenhagen", one_gap, "cordon"), -1.0);
    let two_gaps = "/11/11/11/11/4tTt4/3t1K5/4t1t4/5t5/11/11/11/";
    assert_eq!(term("copenhagen", two_gaps, "cordon"), -2.0);
    // A defender on the edge is out of any ring until taken or gone: two ways each, beside the
    // ways of those off the edge (so that the ring's other gaps still count).
    let on_edge = "/11/11/11/5t5/4tTt4/3t1K1t3/4t1t4/5t5/11/11/1T9/";
    assert_eq!(term("copenhagen", on_edge, "cordon"), -2.0);
    let two_on_edge_one_gap = "/11/11/11/11/4tTt4/3t1K1t3/4t1t4/5t5/11/11/1T3T5/";
    assert_eq!(term("copenhagen", two_on_edge_one_gap, "cordon"), -5.0);
    // Every defender on the edge: nothing to flood, two ways each.
    let all_on_edge = "/1K9/11/11/11/11/11/11/11/11/11/5T5/";
    assert_eq!(term("copenhagen", all_on_edge, "cordon"), -4.0);
    // At the start the ring is not begun: the ways out run past the attackers' groups to the
    // four corners' edges, two or more each.
    let start = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    assert!(term("copenhagen", start, "cordon") <= -8.0);
    // Brandubh has no encirclement rule: nothing to count.
    assert_eq!(
        term("brandubh", "/7/7/2ttt2/2tKt2/2t1t2/7/7/", "cordon"),
        0.0
    );
}

#[test]
fn squeeze_counts_the_room_a_few_pieces_have_left() {
    // Copenhagen: the king locked on the top edge by e11, g11 and f10 (he cannot be taken
    // there) and one soldier on a6. The soldier has 17 moves (4 up the file short of the
    // corner, 4 down, 9 along the rank across the empty throne), the king none: 7 short of
    // the 24 the term deems room enough, in the attackers' favour.
    let locked = "/4tKt4/5t5/11/11/11/T10/11/11/11/11/11/";
    assert_eq!(term("copenhagen", locked, "squeeze"), 7.0);
    // The soldier boxed in at a10 behind b10 and a9: no move at all, 24 short.
    let boxed = "/4tKt4/Tt3t5/t10/11/11/11/11/11/11/11/11/";
    assert_eq!(term("copenhagen", boxed, "squeeze"), 24.0);
    // Four soldiers and the king are more than the few the term counts: nothing, however
    // little room they have.
    let five = "/4tKt4/Tt3t5/t10/11/11/11/11/11/11/11/1T1T1T5/";
    assert_eq!(term("copenhagen", five, "squeeze"), 0.0);
    // The attackers are not squeezed in any of these: three pieces with 45 moves in the
    // first, five pieces (more than the few) in the others. The values are the defenders'.
}

#[test]
fn refuge_counts_the_free_edge_squares_a_fort_builder_reaches() {
    // Copenhagen: the king alone on f6 reaches four edge squares (f11, f1, a6, k6), none of
    // them a corner and none beside an attacker: four, in the defenders' favour.
    let open = "/11/11/11/11/11/5K5/11/11/11/11/11/";
    assert_eq!(term("copenhagen", open, "refuge"), -4.0);
    // An attacker on f2 stands beside f1, and one on b6 beside a6: two are left.
    let watched = "/11/11/11/11/11/1t3K5/11/11/11/11/5t5/";
    assert_eq!(term("copenhagen", watched, "refuge"), -2.0);
    // Walled in by his own men on e6, g6, f7 and f5, he reaches no edge: nothing.
    let walled = "/11/11/11/11/5T5/4TKT4/5T5/11/11/11/11/";
    assert_eq!(term("copenhagen", walled, "refuge"), 0.0);
    // On the edge at a6 with an attacker on a7 beside him, his own square does not count, nor
    // a7's neighbours; he reaches a5 to a2 down the file (a1 is a corner, never counted) and
    // the rank to k6: more than the four the term counts.
    let on_edge = "/11/11/11/11/t10/K10/11/11/11/11/11/";
    assert_eq!(term("copenhagen", on_edge, "refuge"), -4.0);
    // Brandubh has no edge fort: nothing to count.
    assert_eq!(term("brandubh", "/7/7/7/3K3/7/7/7/", "refuge"), 0.0);
}
