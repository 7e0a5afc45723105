/*
** disasm.h: bytecode listings (rslc -S, rsldb's disassemble, tests): one
** definition of how an instruction reads, shared by every tool.
**
** A listing starts with the shader's interface as comments, then the
** instructions, each source line of the line table printed before the
** instructions that belong to it:
**
**   ; surface tint: 5 words, 3 uniform and 6 varying slots
**   ; param Kd float uniform u0
**   t.sl:3: Ci = Kd * Cs;
**       0  MUL.3    v3<Ci>, u0<Kd>, v0<Cs>
**
** Operands are u (uniform) or v (varying) slots; a slot that holds a
** parameter or global is followed by its name in <>, and a uniform slot
** that only ever holds a preloaded constant by its value (u5=0.5).
*/
#ifndef RSL_DISASM_H
#define RSL_DISASM_H

#include <stdio.h>

#include "vm/object.h"

/* Source text for listings and the debugger, each file read once. */
typedef struct VmSource VmSource;
VmSource *vm_source_new(void);
void vm_source_free(VmSource *src);
/* Line `line` of file, without its newline and leading blanks; NULL if
   the file cannot be read or is shorter. */
const char *vm_source_line(VmSource *src, const char *file, unsigned line);

/* Instruction pc of o and its X words as one line of text (no pc, no
   newline) into buf; returns the words it takes. */
uint32_t vm_disasm_ins(const VmObject *o, uint32_t pc, char *buf, size_t size);

/* The slots instruction pc writes at its operand A (0 for none). */
unsigned vm_dest_slots(const VmProgram *p, uint32_t pc);

/* The line table entry that covers pc, or NULL. */
const VmLine *vm_line_at(const VmObject *o, uint32_t pc);

/* Prints the listing of o (src may be NULL: no source text); the
   instruction at pc `mark` gets "=>" (none if mark >= ncode). */
void vm_disasm(FILE *out, const VmObject *o, VmSource *src, uint32_t mark);

/* The names of types and shader kinds as RSL spells them. */
const char *vm_type_name(VmType t);
const char *vm_kind_name(VmShaderKind k);

#endif /* RSL_DISASM_H */
