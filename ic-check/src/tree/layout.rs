//! A tidy layout of a tree drawn top down (Reingold–Tilford, for boxes of any width):
//! each subtree is packed as close to its left sibling as their contours allow, row by
//! row, and each parent is centred over its children. The nodes of one depth share a
//! row as tall as its tallest box. No two boxes overlap, and since a subtree stays on
//! its side of its siblings at every depth, edges drawn between rows do not cross.
//!
//! Why our own: the Rust layout crates (`layout-rs`) lay out general graphs — layers,
//! crossing minimisation — and draw nodes their own way, with no room for the
//! annotations beside a node. A tree needs none of that, and the pictures need boxes
//! exactly as large as their text.

use std::collections::VecDeque;

/// Spacing between boxes.
#[derive(Clone, Copy, Debug)]
pub struct Spacing {
    /// Between neighbouring boxes of a row.
    pub sibling: f64,
    /// Between a row's tallest box and the next row.
    pub row: f64,
}

/// Where each box goes, with the origin at the top left of the drawing.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The centre of each box.
    pub x: Vec<f64>,
    /// The top of each box (of its row).
    pub y: Vec<f64>,
    pub width: f64,
    pub height: f64,
}

/// The (left, right) extent of each row of a subtree, top down: `rows[d] + base`
/// relative to the centre of the subtree's root.
#[derive(Default)]
struct Contour {
    rows: VecDeque<(f64, f64)>,
    base: f64,
}

/// Lays out the tree whose node `i` has `children[i]` and a box of `size[i]` (width,
/// height); node 0 is the root.
pub fn layout(children: &[Vec<usize>], size: &[(f64, f64)], spacing: Spacing) -> Layout {
    let n = children.len();
    if n == 0 {
        return Layout {
            x: Vec::new(),
            y: Vec::new(),
            width: 0.0,
            height: 0.0,
        };
    }
    // Preorder, iteratively: trees may be as deep as executions are long.
    let mut order = Vec::with_capacity(n);
    let mut depth = vec![0usize; n];
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        order.push(v);
        for &c in children[v].iter().rev() {
            depth[c] = depth[v] + 1;
            stack.push(c);
        }
    }
    // Bottom up: each subtree's contour — the (left, right) extent of each of its rows —
    // and each child's offset from its parent. A contour is stored relative to a base
    // (extent = stored + base), so that moving a subtree and giving it a parent row are
    // O(1): a chain costs linear time.
    let mut contour: Vec<Contour> = (0..n).map(|_| Contour::default()).collect();
    let mut offset = vec![0.0f64; n];
    for &v in order.iter().rev() {
        let mut rows = Contour::default();
        let mut placed: Vec<f64> = Vec::with_capacity(children[v].len());
        for (i, &c) in children[v].iter().enumerate() {
            let theirs = std::mem::take(&mut contour[c]);
            if i == 0 {
                rows = theirs;
                placed.push(0.0);
                continue;
            }
            let shift = rows
                .rows
                .iter()
                .zip(&theirs.rows)
                .map(|(mine, their)| {
                    (mine.1 + rows.base) + spacing.sibling - (their.0 + theirs.base)
                })
                .fold(f64::MIN, f64::max);
            // `theirs` moved by `shift`, in the stored coordinates of `rows`.
            let delta = theirs.base + shift - rows.base;
            for (d, their) in theirs.rows.iter().enumerate() {
                let moved = (their.0 + delta, their.1 + delta);
                match rows.rows.get_mut(d) {
                    Some(row) => *row = (row.0.min(moved.0), row.1.max(moved.1)),
                    None => rows.rows.push_back(moved),
                }
            }
            placed.push(shift);
        }
        let middle = match (placed.first(), placed.last()) {
            (Some(first), Some(last)) => (first + last) / 2.0,
            _ => 0.0,
        };
        for (&c, at) in children[v].iter().zip(&placed) {
            offset[c] = at - middle;
        }
        rows.base -= middle;
        let half = size[v].0 / 2.0;
        rows.rows.push_front((-half - rows.base, half - rows.base));
        contour[v] = rows;
    }
    // Top down: absolute centres, and rows.
    let mut x = vec![0.0f64; n];
    for &v in &order {
        for &c in &children[v] {
            x[c] = x[v] + offset[c];
        }
    }
    let left = (0..n)
        .map(|v| x[v] - size[v].0 / 2.0)
        .fold(f64::INFINITY, f64::min);
    let right = (0..n)
        .map(|v| x[v] + size[v].0 / 2.0)
        .fold(f64::NEG_INFINITY, f64::max);
    for v in x.iter_mut() {
        *v -= left;
    }
    let rows = depth.iter().max().map_or(0, |d| d + 1);
    let mut row_height = vec![0.0f64; rows];
    for v in 0..n {
        row_height[depth[v]] = row_height[depth[v]].max(size[v].1);
    }
    let mut row_top = Vec::with_capacity(rows);
    let mut top = 0.0;
    for h in &row_height {
        row_top.push(top);
        top += h + spacing.row;
    }
    Layout {
        y: depth.iter().map(|&d| row_top[d]).collect(),
        x,
        width: right - left,
        height: (top - spacing.row).max(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACING: Spacing = Spacing {
        sibling: 10.0,
        row: 30.0,
    };

    /// Boxes of one row never overlap (with the sibling spacing between them).
    fn assert_apart(children: &[Vec<usize>], size: &[(f64, f64)], l: &Layout) {
        let n = children.len();
        for a in 0..n {
            for b in 0..n {
                if a != b && l.y[a] == l.y[b] && l.x[a] < l.x[b] {
                    let gap = (l.x[b] - size[b].0 / 2.0) - (l.x[a] + size[a].0 / 2.0);
                    assert!(gap >= SPACING.sibling - 1e-9, "{a} and {b}: gap {gap}");
                }
            }
        }
    }

    #[test]
    fn parent_centred_over_children() {
        let children = vec![vec![1, 2, 3], vec![], vec![], vec![]];
        let size = vec![(40.0, 20.0), (20.0, 10.0), (30.0, 10.0), (20.0, 10.0)];
        let l = layout(&children, &size, SPACING);
        assert_eq!(l.x[1], 10.0);
        assert_eq!(l.x[2], 20.0 + 10.0 + 15.0);
        assert_eq!(l.x[3], 20.0 + 10.0 + 30.0 + 10.0 + 10.0);
        assert_eq!(l.x[0], (l.x[1] + l.x[3]) / 2.0);
        assert_eq!((l.y[0], l.y[1]), (0.0, 50.0));
        assert_eq!((l.width, l.height), (90.0, 60.0));
        assert_apart(&children, &size, &l);
    }

    /// A deep subtree on the left does not push a shallow one on the right further than
    /// their common rows require, and nothing overlaps at any depth.
    #[test]
    fn contours_pack_subtrees() {
        // 0 ─ 1 ─ 3 ─ 5
        //   │   └ 4
        //   └ 2 ─ 6
        let children = vec![
            vec![1, 2],
            vec![3, 4],
            vec![6],
            vec![5],
            vec![],
            vec![],
            vec![],
        ];
        let size = vec![(20.0, 10.0); 7];
        let l = layout(&children, &size, SPACING);
        assert_apart(&children, &size, &l);
        // 2 sits beside 1 (row 1) and 6 beside 4 (row 2): the rows decide the shift.
        assert_eq!(l.x[6] - l.x[4], 30.0);
        assert_eq!(l.x[2], l.x[6]);
        assert_eq!(l.x[0], (l.x[1] + l.x[2]) / 2.0);
    }

    #[test]
    fn a_deep_chain_is_laid_out_without_recursion() {
        let n = 100_000;
        let children: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let size = vec![(10.0, 10.0); n];
        let l = layout(&children, &size, SPACING);
        assert_eq!(l.width, 10.0);
        assert_eq!(l.height, n as f64 * 40.0 - 30.0);
    }
}
