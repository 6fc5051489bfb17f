//! The flat-code builder: instructions appended in order, forward jumps patched later,
//! the frame's locals declared as the checker meets them.

use crate::ast::Span;
use crate::ir::{Code, Instr, InstrKind, Local, LocalId, Pc};
use crate::value::Ty;

#[derive(Default)]
pub struct CodeBuilder {
    code: Code,
}

impl CodeBuilder {
    pub fn new_local(&mut self, name: &str, ty: Ty, hidden: bool) -> LocalId {
        self.code.locals.push(Local {
            name: name.to_string(),
            ty,
            hidden,
        });
        (self.code.locals.len() - 1) as LocalId
    }

    /// The pc the next instruction will get.
    pub fn here(&self) -> Pc {
        self.code.instrs.len() as Pc
    }

    pub fn emit(&mut self, kind: InstrKind, span: Span) -> Pc {
        self.code.instrs.push(Instr { kind, span });
        self.here() - 1
    }

    /// Points the jump at `at` to `target`.
    pub fn patch(&mut self, at: Pc, target: Pc) {
        match &mut self.code.instrs[at as usize].kind {
            InstrKind::Jump(t) | InstrKind::JumpUnless(_, t) => *t = target,
            other => unreachable!("patching a non-jump instruction {other:?}"),
        }
    }

    pub fn finish(self) -> Code {
        self.code
    }
}

impl CodeBuilder {
    pub fn local(&self, id: LocalId) -> &Local {
        &self.code.locals[id as usize]
    }
}
