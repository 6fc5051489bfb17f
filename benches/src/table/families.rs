//! The benchmark families of the papers' tables, as data: which program, which sizes,
//! and what the papers printed for them. Sizes are here (not in the harness) so that
//! changing what is measured is a one-line edit next to the numbers it is compared with.

/// Which table a family belongs to: the harness runs one set at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Set {
    /// The CDPOR and CSDPOR papers' programs, then our harder variants of them.
    Papers,
    /// Programs of the classic DPOR literature (Flanagan and Godefroid; Abdulla et al.'s
    /// source sets and optimal DPOR; observers), with their published Mazurkiewicz counts.
    Classic,
    /// The ISSTA 2019 paper's Table 1 (Optimal Context-Sensitive DPOR with Observers),
    /// measured by the optimal algorithms too (odpor, odpor-ob, ocdpor).
    Odpor,
    /// Programs that loop (spin locks, lock-free data structures and their clients):
    /// the stateful searches, with SPIN beside them ([`super::cyclic`]).
    Cyclic,
}

/// One benchmark of the tables, run at increasing sizes.
#[derive(Debug)]
pub struct Family {
    /// The name `--only` takes.
    pub name: &'static str,
    /// How the rows are labelled, as in the papers: `Fib(6)`.
    pub label: &'static str,
    /// The program, under `benches/programs/`.
    pub file: &'static str,
    /// The `param` each size sets.
    pub param: &'static str,
    /// The sizes, smallest first: a run that times out skips the larger ones.
    pub sizes: &'static [i64],
    /// Other `-D` overrides, the same at every size.
    pub defines: &'static [(&'static str, i64)],
    /// The table it belongs to.
    pub set: Set,
    /// What the paper printed for this family.
    pub paper: Paper,
}

/// A paper's rows for one family, kept as the paper writes them (`3k`, `>13k`).
#[derive(Debug)]
pub struct Paper {
    /// Where the numbers come from, for the note under the paper table.
    pub source: &'static str,
    pub rows: &'static [PaperRow],
}

/// One row of a paper's table. Empty strings are columns that paper does not have;
/// `?` marks a cell that our text copy of the paper lost or garbled (the CDPOR table is
/// OCR'd; the PS, DBP and BB rows were partly merged). A timed-out run's time, lost
/// in the copy but fixed by the `>X` counts of the row, is written as the paper's
/// timeout, `60.0`.
#[derive(Debug)]
pub struct PaperRow {
    pub n: i64,
    /// The program's Mazurkiewicz traces at this size, as published: what an optimal DPOR
    /// explores, and what SDPOR explores too once footprints are location-precise.
    pub mazurkiewicz: &'static str,
    /// Tr, S and T of SDPOR, CSDPOR and CDPOR, in that order (the `odpor` set: E, S and
    /// T of the ISSTA paper's DPOR_cs, ODPOR^ob and ODPOR_cs^ob).
    pub runs: [[&'static str; 3]; 3],
    /// Shown only in a family's first row, as in the paper (one synthesis per family).
    pub t_smt: &'static str,
    /// G^s, G^cs and G^smt.
    pub speedups: [&'static str; 3],
}

/// Shorthand for the rows of the CDPOR paper's Table 1.
const fn cdpor_row(
    n: i64,
    sdpor: [&'static str; 3],
    csdpor: [&'static str; 3],
    cdpor: [&'static str; 3],
    t_smt: &'static str,
    speedups: [&'static str; 3],
) -> PaperRow {
    PaperRow {
        n,
        mazurkiewicz: "",
        runs: [sdpor, csdpor, cdpor],
        t_smt,
        speedups,
    }
}

/// Shorthand for the CSDPOR paper's rows: Source-DPOR and its own algorithm (which
/// that paper calls CDPOR, and we call csdpor); times converted from ms to seconds.
const fn csdpor_row(n: i64, sdpor: [&'static str; 3], csdpor: [&'static str; 3]) -> PaperRow {
    PaperRow {
        n,
        mazurkiewicz: "",
        runs: [sdpor, csdpor, ["", "", ""]],
        t_smt: "",
        speedups: ["", "", ""],
    }
}

/// Shorthand for a row that gives only the Mazurkiewicz traces (the classic set).
const fn published(n: i64, mazurkiewicz: &'static str) -> PaperRow {
    PaperRow {
        n,
        mazurkiewicz,
        runs: [["", "", ""], ["", "", ""], ["", "", ""]],
        t_smt: "",
        speedups: ["", "", ""],
    }
}

/// Shorthand for the ISSTA 2019 paper's rows: E, S, T of DPOR_cs, ODPOR^ob, ODPOR_cs^ob.
const fn issta_row(
    n: i64,
    dpor_cs: [&'static str; 3],
    odpor_ob: [&'static str; 3],
    odpor_cs_ob: [&'static str; 3],
) -> PaperRow {
    PaperRow {
        n,
        mazurkiewicz: "",
        runs: [dpor_cs, odpor_ob, odpor_cs_ob],
        t_smt: "",
        speedups: ["", "", ""],
    }
}

const ISSTA_TABLE_1: &str = "ISSTA 2019 paper (Albert et al., Optimal Context-Sensitive DPOR \
                             with Observers), Table 1: E executions, S states, T seconds; \
                             120 s timeout; its thousands are rounded up (BB(7)'s C(14, 7) = \
                             3432 executions print as 4k)";

/// A family of the ISSTA paper's Table 1 (the `odpor` set).
const fn issta(
    name: &'static str,
    label: &'static str,
    file: &'static str,
    sizes: &'static [i64],
    defines: &'static [(&'static str, i64)],
    rows: &'static [PaperRow],
) -> Family {
    Family {
        name,
        label,
        file,
        param: "N",
        sizes,
        defines,
        set: Set::Odpor,
        paper: Paper {
            source: ISSTA_TABLE_1,
            rows,
        },
    }
}

const CDPOR_TABLE_1: &str = "CDPOR paper (CAV 2018), Table 1; 60 s timeout";

/// The paper of the harder families: ours, not the papers' programs, so no rows.
const NO_PAPER: Paper = Paper {
    source: "",
    rows: &[],
};

/// A harder family of ours (shared-memory variants of the papers' programs, kept from
/// before the faithful ones): no paper rows.
const fn ours(
    name: &'static str,
    label: &'static str,
    file: &'static str,
    sizes: &'static [i64],
) -> Family {
    sized_by_n(name, label, file, sizes, Set::Papers, NO_PAPER)
}

/// A family of the classic set, its size being `N`.
const fn classic(
    name: &'static str,
    label: &'static str,
    file: &'static str,
    sizes: &'static [i64],
    source: &'static str,
    rows: &'static [PaperRow],
) -> Family {
    sized_by_n(
        name,
        label,
        file,
        sizes,
        Set::Classic,
        Paper { source, rows },
    )
}

/// A family whose size is its `N`, with no other `-D`.
const fn sized_by_n(
    name: &'static str,
    label: &'static str,
    file: &'static str,
    sizes: &'static [i64],
    set: Set,
    paper: Paper,
) -> Family {
    Family {
        name,
        label,
        file,
        param: "N",
        sizes,
        defines: &[],
        set,
        paper,
    }
}

const OPTIMAL_DPOR: &str = "Abdulla, Aronis, Jonsson, Sagonas, Optimal DPOR (POPL 2014; \
                            JACM 2017), synthetic benchmarks; the count formulas are in \
                            each program's header";
const FLANAGAN_GODEFROID: &str = "Flanagan and Godefroid, DPOR (POPL 2005), also in \
                                  Abdulla et al., Optimal DPOR (POPL 2014; JACM 2017)";

/// Every family: the papers' programs in the order of the CDPOR paper's Table 1 (the
/// actor programs modelled with one process per asynchronous call and futures as map
/// entries), then Reg and PC, then our harder shared-memory variants (no paper rows);
/// then the classic set, with the published Mazurkiewicz counts.
/// Not formatted by rustfmt, so that each paper row stays one line, as in the paper.
#[rustfmt::skip]
pub const FAMILIES: &[Family] = &[
    Family {
        name: "fib",
        label: "Fib",
        file: "fib.ic",
        param: "N",
        sizes: &[6, 7, 8, 9, 10, 14],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(6, ["3k", "26k", "7.7"], ["1", "244", "0.1"], ["1", "50", "0.03"], "0.12", ["366", "4", "0.6"]),
                cdpor_row(7, [">13k", ">160k", "60.0"], ["1", "551", "0.3"], ["1", "82", "0.05"], "", [">1364", "6", "1.4"]),
                cdpor_row(8, [">8k", ">101k", "60.0"], ["1", "2k", "0.7"], ["1", "134", "0.12"], "", [">527", "6", "3.0"]),
                cdpor_row(9, [">4k", ">51k", "60.0"], ["1", "3k", "2.8"], ["1", "218", "0.25"], "", [">242", "12", "7.5"]),
                cdpor_row(10, [">2k", ">27k", "60.0"], ["1", "8k", "11.5"], ["1", "354", "0.69"], "", [">88", "17", "14.3"]),
                cdpor_row(14, [">10", "?", "60.0"], [">1", "?", "60.0"], ["1", "?", "42.67"], "", [">2", ">2", ">1.5"]),
            ],
        },
    },
    Family {
        name: "qs",
        label: "QS",
        file: "qs.ic",
        param: "N",
        sizes: &[10, 13, 15, 20, 25, 200],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(10, ["512", "9k", "2.6"], ["1", "4k", "1.0"], ["1", "38", "0.02"], "11.99", ["199", "71", "0.1"]),
                cdpor_row(13, ["5k", "?", "29.5"], ["1", "29k", "7.9"], ["1", "50", "0.03"], "", ["1474", "395", "0.7"]),
                cdpor_row(15, [">7k", ">157k", "60.0"], ["1", "115k", "?"], ["1", "58", "0.05"], "", [">1500", "1064", "3.6"]),
                cdpor_row(20, [">4k", ">98k", "60.0"], [">1", ">148k", "60.0"], ["1", "78", "0.04"], "", ["?", ">1539", ">5.0"]),
                cdpor_row(25, [">3k", ">96k", "60.0"], [">1", ">133k", "60.0"], ["1", "98", "0.06"], "", ["?", ">1017", ">5.0"]),
                cdpor_row(200, [">5", "?", "60.0"], [">1", ">87k", "60.0"], ["1", "798", "4.45"], "", [">14", ">14", ">3.7"]),
            ],
        },
    },
    Family {
        name: "ms",
        label: "MS",
        file: "ms.ic",
        param: "N",
        sizes: &[10, 30, 65, 100, 150, 220],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(10, ["628", "7k", "2.9"], ["1", "187", "0.1"], ["1", "42", "0.02"], "0.12", ["175", "6", "0.7"]),
                cdpor_row(30, [">6k", ">55k", "60.0"], ["1", "974", "1.0"], ["1", "118", "0.13"], "", [">484", "8", "4.0"]),
                cdpor_row(65, [">2k", ">16k", "60.0"], ["1", "3k", "3.5"], ["1", "258", "0.47"], "", [">131", "8", "6.1"]),
                cdpor_row(100, [">2k", ">15k", "60.0"], [">1", ">19k", "60.0"], ["1", "398", "0.97"], "", [">63", ">63", ">55.6"]),
                cdpor_row(150, [">2k", ">21k", "60.0"], [">1", ">18k", "60.0"], ["1", "598", "2.21"], "", [">28", ">28", ">26.0"]),
                cdpor_row(220, [">341", "?", "60.0"], [">1", "?", "60.0"], ["1", "878", "4.49"], "", [">14", ">14", ">13.1"]),
            ],
        },
    },
    Family {
        name: "pi",
        label: "Pi",
        file: "pi.ic",
        param: "N",
        sizes: &[7, 8, 9, 10, 12, 20],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(7, ["6k", "49k", "16.2"], ["74", "2k", "0.4"], ["1", "23", "0.02"], "0.05", ["1243", "27", "5.6"]),
                cdpor_row(8, [">10k", ">105k", "60.0"], ["264", "5k", "1.7"], ["1", "26", "0.02"], "", [">4616", "128", "26.9"]),
                cdpor_row(9, ["?", ">120k", "60.0"], ["2k", "19k", "7.0"], ["1", "29", "0.02"], "", [">4000", "465", "108.9"]),
                cdpor_row(10, ["?", ">128k", "60.0"], ["6k", "?", "45.2"], ["1", "32", "0.02"], "", [">3530", "2655", "683.7"]),
                cdpor_row(12, ["?", ">122k", "60.0"], [">7k", ">128k", "60.0"], ["1", "38", "0.03"], "", ["?", ">2400", "?"]),
                cdpor_row(20, [">5k", ">101k", "60.0"], [">5k", ">115k", "60.0"], ["1", "62", "0.09"], "", [">723", "?", ">454.6"]),
            ],
        },
    },
    Family {
        name: "ps",
        label: "PS",
        file: "ps.ic",
        param: "N",
        sizes: &[4, 5, 6, 7, 9, 11],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(4, ["288", "2k", "0.4"], ["2", "41", "0.1"], ["1", "16", "0.01"], "0.59", ["72", "23", "0.1"]),
                cdpor_row(5, ["35k", "156k", "?"], ["8", "142", "0.1"], ["1", "22", "0.01"], "", ["5391", "5", "0.1"]),
                cdpor_row(6, ["?", ">141k", "60.0"], ["72", "2k", "?"], ["1", "29", "0.02"], "", [">4286", "28", "?"]),
                cdpor_row(7, ["?", ">130k", "60.0"], ["2k", "28k", "7.5"], ["1", "37", "0.02"], "", [">2858", "357", "12.3"]),
                cdpor_row(9, ["?", "?", "60.0"], [">11k", ">165k", "60.0"], ["1", "56", "0.03"], "", ["?", ">1053", ">92.9"]),
                cdpor_row(11, ["?", "?", "60.0"], ["?", "?", "60.0"], ["1", "79", "?"], "", [">690", ">690", ">88.8"]),
            ],
        },
    },
    Family {
        name: "dbp",
        label: "DBP",
        file: "dbp.ic",
        param: "N",
        sizes: &[5, 6, 7, 8, 10, 12],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(5, ["243", "8k", "2.0"], ["133", "4k", "1.0"], ["32", "193", "0.03"], "0.09", ["27", "14", "6.2"]),
                cdpor_row(6, ["729", "33k", "8.2"], ["308", "11k", "3.2"], ["64", "?", "0.08"], "", ["53", "21", "13.3"]),
                cdpor_row(7, ["3k", "134k", "?"], ["699", "?", "10.8"], ["128", "771", "0.33"], "", ["113", "33", "26.2"]),
                cdpor_row(8, ["?", "?", "60.0"], ["2k", "?", "36.1"], ["?", "2k", "0.39"], "", [">77", "47", "41.6"]),
                cdpor_row(10, ["?", ">116k", "60.0"], ["?", ">125k", "60.0"], ["2k", "7k", "3.23"], "", [">19", ">19", ">18.2"]),
                cdpor_row(12, [">9k", ">79k", "60.0"], ["?", ">111k", "60.0"], ["?", "?", "15.79"], "", [">4", ">4", ">3.8"]),
            ],
        },
    },
    Family {
        name: "bb",
        label: "BB",
        file: "bb.ic",
        param: "N",
        sizes: &[6, 7, 8, 9, 10, 11],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: CDPOR_TABLE_1,
            rows: &[
                cdpor_row(6, ["924", "4k", "1.3"], ["215", "2k", "0.5"], ["64", "382", "0.91"], "0.18", ["2", "1", "0.4"]),
                cdpor_row(7, ["4k", "13k", "4.3"], ["580", "4k", "1.2"], ["?", "830", "1.49"], "", ["3", "1", "0.8"]),
                cdpor_row(8, ["13k", "?", "17.2"], ["2k", "11k", "3.3"], ["256", "2k", "2.79"], "", ["7", "2", "1.1"]),
                cdpor_row(9, ["?", ">156k", "60.0"], ["5k", "30k", "?"], ["512", "4k", "6.15"], "", [">10", "2", "1.5"]),
                cdpor_row(10, ["?", ">176k", "60.0"], ["12k", "?", "23.6"], ["2k", "?", "12.50"], "", [">5", "2", "1.9"]),
                cdpor_row(11, [">44k", ">169k", "60.0"], [">44k", ">169k", "60.0"], ["3k", "18k", "25.74"], "", [">3", ">3", ">2.4"]),
            ],
        },
    },
    Family {
        name: "reg",
        label: "Reg",
        file: "reg.ic",
        param: "N",
        sizes: &[4, 5, 6],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: "CSDPOR paper (CAV 2017), Table 2: Source-DPOR and CDPOR3 (our csdpor) \
                     Execs and Time; no states; 120 s timeout",
            rows: &[
                csdpor_row(4, ["384", "", "0.214"], ["1", "", "0.004"]),
                csdpor_row(5, ["3840", "", "2.357"], ["1", "", "0.006"]),
                csdpor_row(6, ["46080", "", "39.769"], ["1", "", "0.007"]),
            ],
        },
    },
    Family {
        name: "pc",
        label: "PC",
        file: "pc.ic",
        param: "N",
        sizes: &[3, 5, 7, 9],
        defines: &[],
        set: Set::Papers,
        paper: Paper {
            source: "CSDPOR paper (CAV 2017), Table 1: Source-DPOR (C(2N, N) executions) \
                     and its CDPOR (our csdpor, 2^N executions)",
            rows: &[
                csdpor_row(3, ["20", "69", "0.005"], ["8", "52", "0.006"]),
                csdpor_row(5, ["252", "923", "0.100"], ["32", "324", "0.058"]),
                csdpor_row(7, ["3432", "12869", "1.663"], ["128", "1712", "0.357"]),
                csdpor_row(9, ["48620", "184755", "30.856"], ["512", "8428", "2.284"]),
            ],
        },
    },
    ours("fib_shared", "Fib_shared", "fib_shared.ic", &[3, 4, 5, 6]),
    ours("qs_shared", "QS_shared", "qs_shared.ic", &[10, 13, 15, 20]),
    ours("ms_shared", "MS_shared", "ms_shared.ic", &[10, 30]),
    ours("pi_shared", "Pi_shared", "pi_shared.ic", &[7, 8, 9, 10, 12, 20]),
    ours("ps_shared", "PS_shared", "ps_shared.ic", &[4, 5, 6, 7, 9]),
    ours("db_backup", "DB_backup", "db_backup.ic", &[5, 6, 7, 8, 10, 12]),
    ours("db_backup_shared", "DB_backup_shared", "db_backup_shared.ic", &[5, 6, 7, 8, 10, 12]),
    ours("bb_many", "BB_many", "bb_many.ic", &[6, 7, 8]),
    classic("lastzero", "Lastzero", "classic/lastzero.ic", &[5, 8, 10], OPTIMAL_DPOR,
        &[published(5, "64"), published(8, "704"), published(10, "3328")]),
    classic("indexer", "Indexer", "classic/indexer.ic", &[12, 13, 14], FLANAGAN_GODEFROID,
        &[published(12, "8"), published(13, "64"), published(14, "512")]),
    classic("filesystem", "Filesystem", "classic/filesystem.ic", &[14, 16, 18], FLANAGAN_GODEFROID,
        &[published(14, "2"), published(16, "8"), published(18, "32")]),
    classic("readers", "Readers", "classic/readers.ic", &[4, 8, 12], OPTIMAL_DPOR,
        &[published(4, "16"), published(8, "256"), published(12, "4096")]),
    classic("lastwrite", "Lastwrite", "classic/lastwrite.ic", &[3, 5, 7],
        "Aronis, Jonsson, Lång, Sagonas, Optimal DPOR with Observers (TACAS 2018); the \
         counts as printed in Albert et al., Optimal Context-Sensitive DPOR with Observers \
         (ISSTA 2019), Table 1, LW, DPOR_cs executions: N!",
        &[published(3, "6"), published(5, "120"), published(7, "6k")]),
    classic("dining", "Dining", "classic/dining.ic", &[4, 8, 10],
        "no published count: 2^N - 2, derived in classic/dining.ic",
        &[published(4, "14"), published(8, "254"), published(10, "1022")]),
    classic("casrot", "CASrot", "classic/casrot.ic", &[5, 7, 9],
        "GenMC's test tests/correct/synthetic/casrot, its expected.sc.mo.in: executions \
         where a failed compare-and-swap only reads",
        &[published(5, "43"), published(7, "523"), published(9, "8597")]),
    // The ISSTA 2019 paper's Table 1, its rows in its order; which program models which
    // row, and how, is in benches/programs/odpor/README.md.
    issta("fr", "FR", "odpor/fr.ic", &[3, 5, 7, 9], &[], &[
        issta_row(3, ["17", "36", "0.02"], ["13", "29", "0.03"], ["8", "27", "0.04"]),
        issta_row(5, ["416", "865", "0.35"], ["81", "247", "0.17"], ["29", "141", "0.14"]),
        issta_row(7, ["21k", "42k", "34.21"], ["449", "2k", "2.28"], ["68", "456", "0.82"]),
        issta_row(9, [">51k", ">104k", "120.00"], ["3k", "12k", "29.92"], ["129", "2k", "5.18"]),
    ]),
    issta("fr_a", "FR-a", "odpor/fr.ic", &[4, 6, 8, 10], &[("A", 1)], &[
        issta_row(4, ["24", "107", "0.05"], ["33", "86", "0.05"], ["1", "40", "0.04"]),
        issta_row(6, ["720", "4k", "2.17"], ["193", "680", "0.88"], ["1", "119", "0.25"]),
        issta_row(8, [">20k", ">88k", "120.00"], ["2k", "5k", "10.79"], ["1", "270", "1.18"]),
        issta_row(10, [">18k", ">79k", "120.00"], [">5k", ">26k", "120.00"], ["1", "517", "5.09"]),
    ]),
    issta("lw", "LW", "classic/lastwrite.ic", &[3, 5, 7, 10], &[], &[
        issta_row(3, ["6", "17", "0.01"], ["3", "10", "0.01"], ["1", "10", "0.01"]),
        issta_row(5, ["120", "327", "0.16"], ["5", "21", "0.02"], ["1", "21", "0.03"]),
        issta_row(7, ["6k", "14k", "8.96"], ["7", "36", "0.06"], ["1", "36", "0.07"]),
        issta_row(10, [">32k", ">85k", "120.00"], ["10", "66", "0.32"], ["1", "66", "0.31"]),
    ]),
    issta("abs", "abs", "odpor/abs.ic", &[2, 3, 4, 5], &[], &[
        issta_row(2, ["4", "28", "0.02"], ["2", "15", "0.01"], ["1", "12", "0.01"]),
        issta_row(3, ["54", "577", "0.30"], ["2", "26", "0.02"], ["1", "23", "0.02"]),
        issta_row(4, ["2k", "33k", "29.34"], ["2", "44", "0.04"], ["1", "40", "0.05"]),
        issta_row(5, [">4k", ">109k", "120.00"], ["2", "58", "0.09"], ["1", "54", "0.10"]),
    ]),
    issta("lam", "Lam", "odpor/lam.ic", &[2], &[], &[
        issta_row(2, ["37", "605", "0.30"], ["30", "470", "0.59"], ["26", "456", "0.46"]),
    ]),
    issta("fib_issta", "Fib", "fib.ic", &[3, 4, 5, 6], &[], &[
        issta_row(3, ["1", "18", "0.01"], ["6", "22", "0.01"], ["1", "18", "0.01"]),
        issta_row(4, ["1", "43", "0.02"], ["90", "250", "0.18"], ["1", "43", "0.03"]),
        issta_row(5, ["1", "99", "0.04"], ["4k", "11k", "22.36"], ["1", "99", "0.09"]),
        issta_row(6, ["1", "228", "0.13"], [">2k", ">6k", "120.00"], ["1", "228", "0.63"]),
    ]),
    issta("qs_issta", "QS", "qs.ic", &[8, 10, 13, 15], &[], &[
        issta_row(8, ["1", "763", "0.31"], ["4k", "12k", "23.67"], ["1", "309", "0.19"]),
        issta_row(10, ["1", "4k", "1.47"], [">6k", ">31k", "120.00"], ["1", "607", "0.50"]),
        issta_row(13, ["1", "25k", "14.83"], [">2k", ">15k", "120.00"], ["1", "2k", "1.68"]),
        issta_row(15, ["1", "99k", "72.95"], [">826", ">10k", "120.00"], ["1", "3k", "3.56"]),
    ]),
    issta("ms_issta", "MS", "ms.ic", &[7, 9, 11, 14], &[], &[
        issta_row(7, ["1", "70", "0.03"], ["2k", "4k", "5.12"], ["1", "68", "0.06"]),
        issta_row(9, ["1", "121", "0.06"], ["14k", "37k", "116.75"], ["1", "107", "0.14"]),
        issta_row(11, ["1", "172", "0.09"], [">4k", ">13k", "120.00"], ["1", "166", "0.33"]),
        issta_row(14, ["1", "254", "0.14"], [">2k", ">5k", "120.00"], ["1", "224", "1.08"]),
    ]),
    issta("dbp_issta", "DBP", "dbp.ic", &[5, 6, 7, 8], &[], &[
        issta_row(5, ["361", "5k", "2.89"], ["32", "210", "0.24"], ["4", "65", "0.09"]),
        issta_row(6, ["2k", "21k", "66.59"], ["64", "451", "0.73"], ["4", "73", "0.14"]),
        issta_row(7, [">3k", ">26k", "120.00"], ["128", "964", "2.23"], ["5", "109", "0.28"]),
        issta_row(8, [">3k", ">27k", "120.00"], ["256", "3k", "6.78"], ["5", "117", "0.44"]),
    ]),
    issta("bb_issta", "BB", "bb.ic", &[3, 5, 7, 8], &[], &[
        issta_row(3, ["11", "38", "0.02"], ["20", "49", "0.03"], ["5", "23", "0.02"]),
        issta_row(5, ["80", "326", "0.13"], ["252", "671", "0.56"], ["17", "103", "0.09"]),
        issta_row(7, ["580", "3k", "1.18"], ["4k", "10k", "18.02"], ["65", "459", "0.82"]),
        issta_row(8, ["5k", "21k", "12.49"], [">10k", ">28k", "120.00"], ["257", "3k", "15.87"]),
    ]),
];

/// The families `--only` names (of any set), in table order, or without names every
/// family of `set`; an unknown name is an error that lists the known ones.
pub fn select(set: Set, names: &[String]) -> Result<Vec<&'static Family>, String> {
    if names.is_empty() {
        return Ok(FAMILIES.iter().filter(|f| f.set == set).collect());
    }
    for name in names {
        if !FAMILIES.iter().any(|f| f.name.eq_ignore_ascii_case(name)) {
            let known: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
            return Err(format!(
                "unknown family `{name}`; the families are: {}",
                known.join(", ")
            ));
        }
    }
    Ok(FAMILIES
        .iter()
        .filter(|f| names.iter().any(|n| f.name.eq_ignore_ascii_case(n)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_rows_are_the_family_sizes() {
        for f in FAMILIES.iter().filter(|f| !f.paper.rows.is_empty()) {
            let paper: Vec<i64> = f.paper.rows.iter().map(|r| r.n).collect();
            assert_eq!(paper, f.sizes, "{}", f.name);
        }
    }

    #[test]
    fn an_unknown_family_lists_the_known_ones() {
        assert_eq!(
            select(Set::Papers, &["fob".to_string()]).unwrap_err(),
            "unknown family `fob`; the families are: fib, qs, ms, pi, ps, dbp, bb, reg, pc, \
             fib_shared, qs_shared, ms_shared, pi_shared, ps_shared, db_backup, \
             db_backup_shared, bb_many, lastzero, indexer, filesystem, readers, lastwrite, \
             dining, casrot, fr, fr_a, lw, abs, lam, fib_issta, qs_issta, ms_issta, dbp_issta, \
             bb_issta"
        );
        let picked = select(Set::Papers, &["PC".to_string(), "lastzero".to_string()]).unwrap();
        let names: Vec<&str> = picked.iter().map(|f| f.name).collect();
        assert_eq!(names, ["pc", "lastzero"]);
    }

    #[test]
    fn a_set_is_its_families() {
        let names =
            |set| -> Vec<&str> { select(set, &[]).unwrap().iter().map(|f| f.name).collect() };
        assert_eq!(
            names(Set::Classic),
            [
                "lastzero",
                "indexer",
                "filesystem",
                "readers",
                "lastwrite",
                "dining",
                "casrot"
            ]
        );
        assert_eq!(names(Set::Papers).len(), 17);
        assert_eq!(names(Set::Odpor).len(), 10);
    }

    #[test]
    fn classic_rows_give_the_mazurkiewicz_counts_only() {
        for f in FAMILIES.iter().filter(|f| f.set == Set::Classic) {
            for row in f.paper.rows {
                assert!(!row.mazurkiewicz.is_empty(), "{}({})", f.name, row.n);
                assert!(
                    row.runs.iter().flatten().all(|c| c.is_empty()),
                    "{}",
                    f.name
                );
            }
        }
    }
}
