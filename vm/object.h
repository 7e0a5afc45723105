/*
** object.h: compiled shaders in ELF relocatable objects ("rslc -o x.o").
**
** An object is an ordinary ELF64 file (ET_REL, EM_NONE: the bytecode is
** machine independent) that readelf and objdump list. Its sections, all
** little-endian whatever the host:
**
**   .rsl.meta      header (u32 each): magic "RSLO", version, shader kind,
**                  name, uniform slots, varying slots, parameter count,
**                  global count; then one 12-byte record per parameter,
**                  then per global: name u32, type u8, flags u8,
**                  array length u16, register u16, 0 u16
**   .rsl.code      the instructions, u64 each (opcodes.h)
**   .rsl.uinit     the initial uniform file, f32 per slot
**   .rsl.strings   the program's string table: u32 offsets into .rsl.strtab
**   .rsl.builtins  the builtins CALLB indexes (VmCallee, vm.h): the u32
**                  fingerprint of runtime/builtins.def's table, then per
**                  callee its row u32, result type letter u8, argument
**                  count u8, 0 u16, and per argument its type letter u8,
**                  0 u8, array length u16
**   .rsl.lines     line table: (pc, line, file offset) u32 triples, by pc
**   .rsl.strtab    NUL-terminated names, referenced by byte offset
**   .rsl.vinit     varying slots' initial values (varying parameters'
**                  defaults): (slot u32, value f32) pairs
**   .rsl.debug     only with rslc -g: the debugger's view of the code
**                  (VmDebug below). A header of u32 counts: frames,
**                  variables, ranges; then per frame 20 bytes: function
**                  name, call-site file (strtab offsets), call-site line,
**                  parent frame (0xffffffff for the shader's own),
**                  entry pc; then the frame of every instruction word
**                  (u32 each, ncode of them); then per variable 20
**                  bytes: name u32, type u8, 0 u8, array length u16,
**                  frame u32, first range u32, range count u32; then
**                  per range 12 bytes: first pc u32, last pc u32,
**                  register u16, 0 u16
**   .rsl.ptx       only with rslc --gpu: the shader's PTX for an NVIDIA
**                  GPU (backends/llvm/ptx.c has its ABI): the GPU's name
**                  ("sm_75", a strtab offset) u32, the text's length u32,
**                  then the text (ASCII, no NUL), zero-padded to 4 bytes
**
** Later backends add native code beside these.
*/
#ifndef RSL_OBJECT_H
#define RSL_OBJECT_H

#include "vm/vm.h"

enum { VM_OBJECT_VERSION = 4 };

typedef enum VmShaderKind {
    VM_SURFACE, VM_LIGHT, VM_DISPLACEMENT, VM_VOLUME, VM_IMAGER, VM_NKINDS
} VmShaderKind;

typedef enum VmType {
    VM_T_FLOAT, VM_T_COLOR, VM_T_POINT, VM_T_VECTOR, VM_T_NORMAL, VM_T_MATRIX, VM_T_STRING,
    VM_NTYPES
} VmType;

/* Flags of a parameter or global. */
#define VM_VAR_VARYING 1u
#define VM_VAR_OUTPUT  2u   /* output parameter, or a global the shader writes */
#define VM_VAR_READ    4u   /* a global the shader reads */

/* A shader parameter or global, and the register that holds it. A
   parameter's default value is its slots in the initial uniform file. */
typedef struct VmVar {
    const char *name;
    VmType type;
    unsigned flags;
    unsigned arraylen;               /* 0: not an array */
    unsigned reg;                    /* operand: VM_V | slot, or a uniform slot */
} VmVar;

typedef struct VmLine {
    uint32_t pc, line;
    const char *file;
} VmLine;

/* Debug information (rslc -g). Inlining makes frames: frame 0 is the
   shader's own code, and each inlined call a frame whose parent is the
   frame of its call site, so the debugger can rebuild a backtrace. */
#define VM_NO_FRAME 0xffffffffu

typedef struct VmFrame {
    const char *func;                /* the function (or shader) name */
    const char *call_file;           /* call site; "" for frame 0 */
    uint32_t call_line;
    uint32_t parent;                 /* VM_NO_FRAME for frame 0 */
    uint32_t entry;                  /* the pc its code starts at */
} VmFrame;

/* Where a variable lives: from pc lo to pc hi inclusive (stopped before
   the instruction at pc), its value is in register reg. */
typedef struct VmDbgRange {
    uint32_t lo, hi;
    unsigned reg;                    /* operand: VM_V | slot, or a uniform slot */
} VmDbgRange;

/* A source variable of a frame. No ranges at all, or none covering a pc:
   optimisation removed it there ("optimized out"). */
typedef struct VmDbgVar {
    const char *name;
    VmType type;
    unsigned arraylen;
    uint32_t frame;
    const VmDbgRange *ranges;
    uint32_t nranges;
} VmDbgVar;

typedef struct VmDebug {
    VmFrame *frames;
    uint32_t nframes;
    uint32_t *pc_frame;              /* the frame of each instruction word */
    VmDbgVar *vars;
    uint32_t nvars;
    VmDbgRange *ranges;              /* every variable's, in one array */
    uint32_t nranges;
} VmDebug;

typedef struct VmObject {
    const char *name;
    VmShaderKind kind;
    VmProgram prog;                  /* prog.builtins stays NULL: bind by row */
    const VmCallee *callees;         /* prog.nbuiltins of them */
    VmVar *params, *globals;
    uint32_t nparams, nglobals;
    VmLine *lines;
    uint32_t nlines;
    VmDebug *debug;                  /* NULL without rslc -g */
    const char *ptx;                 /* NUL-terminated; NULL without rslc --gpu */
    const char *ptx_gpu;             /* the GPU it is for ("sm_75") */
    struct ObjAlloc *alloc;          /* private: what vm_object_free releases */
} VmObject;

/* The number of slots a variable of this type and array length takes. */
unsigned vm_type_slots(VmType t, unsigned arraylen);

/* Writes obj to path through a temporary file renamed into place, so a
   failure never leaves a partial object. Returns 0, or -1 with a message
   in err. */
int vm_object_write(const char *path, const VmObject *obj, char *err, int errlen);

/* Reads and checks an object: section sizes and offsets, names, variable
   registers, the line table, and the bytecode (vm_verify). NULL with a
   "path: error: ..." message in err for anything malformed. */
VmObject *vm_object_read(const char *path, char *err, int errlen);

/* The same from a buffer (what the fuzzer drives); name is for messages. */
VmObject *vm_object_parse(const void *data, size_t size, const char *name, char *err,
                          int errlen);

/* An empty object, and memory it owns (zeroed; freed with it): how the
   reader and the code generator build one. NULL when out of memory. */
VmObject *vm_object_new(void);
void *vm_object_own(VmObject *obj, size_t size);

void vm_object_free(VmObject *obj);

#endif /* RSL_OBJECT_H */
