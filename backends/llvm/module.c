/*
** module.c: the native back end's driver (native.h): one shader's LLVM
** module, its entry function, JIT compilation, and running batches.
**
** The entry is
**     void shade(float *Uin, float *U, float *V, i64 n, i64 base, i32 *lanes,
**                NativeRt *rt)
** over lanes base .. base+W-1 of a VmState's register files (U uniform,
** V varying with n lanes per slot); lanes[i] says whether lane base+i
** runs (in the batch and requested). native_session_run calls it for
** each W lanes of a batch; uniform inputs are read from Uin, a copy of U
** as the batch began, since each W lanes store the uniform outputs.
**
** A shader that takes derivatives has a second entry of that signature,
** "prelude" (prelude.c): native_session_run runs it over every W lanes of
** the batch before shade, to compute the derivatives' operands.
**
** nl_lower makes that module for any W: the CPU's here (JIT-compiled),
** and one lane per thread for PTX (ptx.c, which wraps it in a kernel).
*/
#include <llvm-c/Analysis.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/llvm/jit.h"
#include "backends/llvm/native_impl.h"
#include "rslc/diag.h"
#include "vm/builtins.h"

typedef void (*ShadeFn)(const float *Uin, float *U, float *V, int64_t n, int64_t base,
                        const int32_t *lanes, NativeRt *rt);

struct NativeShader {
    NativeIsa isa;
    int W;
    NativeJit *jit;
    ShadeFn shade;
    ShadeFn prelude;            /* NULL: no derivatives */
    int drows;                  /* the prelude's rows of n floats */
    VmCallee *callees;
    int ncallees;
    NativeSite *sites;
    int nsites;
    NativeBack *backs;
    int nbacks;
    char *llvm_text;            /* NULL: not kept (keep_llvm), or read from the code cache */
    bool cached;
    double ms;
    /* Compilation after lowering (native_finish): until it begins, the
       lowered module in its own context and what compiling it needs;
       afterwards, why it failed (else NULL). The lock guards state. */
    LLVMOrcThreadSafeContextRef tsc;
    LLVMModuleRef mod;
    int level;
    bool keep_llvm;
    NativeCache *cache;         /* where the code goes once compiled, or NULL */
    unsigned char key[32];
    char *name;                 /* the shader's, for messages */
    char *error;
    enum { NS_PENDING, NS_COMPILING, NS_READY, NS_FAILED } state;
    pthread_mutex_t lock;
    pthread_cond_t done;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void set_types(Lower *L)
{
    L->f32 = LLVMFloatTypeInContext(L->ctx);
    L->i1 = LLVMInt1TypeInContext(L->ctx);
    L->i8 = LLVMInt8TypeInContext(L->ctx);
    L->i32 = LLVMInt32TypeInContext(L->ctx);
    L->i64 = LLVMInt64TypeInContext(L->ctx);
    L->ptr = LLVMPointerTypeInContext(L->ctx, 0);
    L->voidt = LLVMVoidTypeInContext(L->ctx);
    L->vf = LLVMVectorType(L->f32, (unsigned)L->W);
    L->vb = LLVMVectorType(L->i1, (unsigned)L->W);
    L->vi32 = LLVMVectorType(L->i32, (unsigned)L->W);
}

/* An entry function of the module's signature, named name, its entry
   block (allocas, inputs, the lane mask) and the block lowering starts
   in, which it returns. */
static LLVMBasicBlockRef begin_entry(Lower *L, const char *name)
{
    LLVMTypeRef params[7] = { L->ptr, L->ptr, L->ptr, L->i64, L->i64, L->ptr, L->ptr };
    L->func = LLVMAddFunction(L->mod, name, LLVMFunctionType(L->voidt, params, 7, 0));
    /* W-lane vectors in registers that wide, whatever the CPU prefers. */
    char width[16];
    snprintf(width, sizeof width, "%d", L->W * 32);
    LLVMAddAttributeAtIndex(L->func, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(L->ctx, "min-legal-vector-width", 22,
                                                         width, (unsigned)strlen(width)));
    LLVMAddAttributeAtIndex(L->func, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(L->ctx, "prefer-vector-width", 19,
                                                         width, (unsigned)strlen(width)));
    L->Uin = LLVMGetParam(L->func, 0);
    L->U = LLVMGetParam(L->func, 1);
    L->V = LLVMGetParam(L->func, 2);
    L->stride = LLVMGetParam(L->func, 3);
    L->base = LLVMGetParam(L->func, 4);
    L->rt = LLVMGetParam(L->func, 6);
    L->entry_bb = LLVMAppendBasicBlockInContext(L->ctx, L->func, "entry");
    L->eb = LLVMCreateBuilderInContext(L->ctx);
    LLVMPositionBuilderAtEnd(L->eb, L->entry_bb);
    LLVMValueRef m = LLVMBuildLoad2(L->eb, L->vi32, LLVMGetParam(L->func, 5), "");
    LLVMSetAlignment(m, 4); /* an int32_t array */
    L->lanes = LLVMBuildICmp(L->eb, LLVMIntNE, m, LLVMConstNull(L->vi32), "lanes");
    L->b = LLVMCreateBuilderInContext(L->ctx);
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(L->ctx, L->func, "start");
    LLVMPositionBuilderAtEnd(L->b, start);
    return start;
}

/* The prelude: a second entry whose values, slots and variables start
   afresh (it shares only the module and the call sites). */
static void lower_prelude(Lower *L)
{
    int nv = L->fn->next_val_id + 1;
    free(L->vals);
    free(L->have);
    free(L->slot);
    L->vals = calloc((size_t)nv, sizeof *L->vals);
    L->have = calloc((size_t)nv, sizeof *L->have);
    L->slot = calloc((size_t)nv, sizeof *L->slot);
    L->nvars = 0;
    L->masked = false;
    LLVMDisposeBuilder(L->b);
    LLVMDisposeBuilder(L->eb);
    LLVMBasicBlockRef start = begin_entry(L, "prelude");
    L->at_entry = true;
    L->cur_mask = L->lanes;
    nl_lower_prelude(L);
    LLVMBuildRetVoid(L->b);
    LLVMBuildBr(L->eb, start);
}

static void lower_free(Lower *L)
{
    for (int i = 0; i < L->narena; i++)
        free(L->arena[i]);
    free(L->arena);
    free(L->vals);
    free(L->have);
    free(L->slot);
    free(L->order);
    free(L->loop_end);
    free(L->region_of);
    free(L->light_cnt);
    free(L->light_val);
    free(L->mask_slot);
    free(L->bb);
    free(L->vars);
    free(L->drow);
    free(L->dslice);
    free(L->dblock);
    if (L->b)
        LLVMDisposeBuilder(L->b);
    if (L->eb)
        LLVMDisposeBuilder(L->eb);
}

/* A message "native code for 'NAME': WHAT: MSG" (msg taken), malloc'd. */
static char *failure(const char *name, const char *what, char *msg)
{
    size_t n = strlen(name) + strlen(what) + (msg ? strlen(msg) : 6) + 32;
    char *text = malloc(n);
    if (text)
        snprintf(text, n, "native code for '%s': %s: %s", name, what, msg ? msg : "failed");
    free(msg);
    return text ? text : strdup("out of memory");
}

static NativeShader *fail(RslcCtx *rc, IrFunc *shader, const char *what, char *msg)
{
    char *text = failure(shader->name, what, msg);
    diag_error(rc, shader->loc, "%s", text ? text : "out of memory");
    free(text);
    return NULL;
}

/* LLVMVerifyModule allocates a message even when the module is fine: it
   is freed then, and *msg left NULL. */
bool nl_verified(LLVMModuleRef mod, char **msg)
{
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, msg))
        return false;
    LLVMDisposeMessage(*msg);
    *msg = NULL;
    return true;
}

bool nl_lower(Lower *L, RslcCtx *rc, IrFunc *shader, const VmObject *obj,
              const NativeOptions *opt, LLVMContextRef ctx, int W, bool gpu)
{
    *L = (Lower){ .rc = rc, .fn = shader, .obj = obj, .opt = opt, .W = W, .gpu = gpu, .ctx = ctx };
    if (opt->lacks && opt->lackslen > 0)
        opt->lacks[0] = '\0';
    L->mod = LLVMModuleCreateWithNameInContext(shader->name, L->ctx);
    int nv = shader->next_val_id + 1;
    L->vals = calloc((size_t)nv, sizeof *L->vals);
    L->have = calloc((size_t)nv, sizeof *L->have);
    L->slot = calloc((size_t)nv, sizeof *L->slot);
    set_types(L);
    LLVMBasicBlockRef start = begin_entry(L, "shade");
    nl_declare_helpers(L);
    nl_declare_deriv(L);
    if (nl_deriv_plan(L))
        nl_lower_body(L);
    LLVMBuildBr(L->eb, start);
    if (!L->failed && L->drows)
        lower_prelude(L);
    char *msg = NULL;
    if (!L->failed && !nl_verified(L->mod, &msg)) {
        fail(rc, shader, "LLVM rejected the lowered module", msg);
        L->failed = true;
    }
    if (L->failed) {
        LLVMDisposeModule(L->mod);
        L->mod = NULL;
    }
    return !L->failed;
}

void nl_lower_done(Lower *L)
{
    free(L->callees);
    for (int i = 0; i < L->nsites; i++)
        free(L->sites[i].file);
    free(L->sites);
    for (int i = 0; i < L->nbacks; i++)
        free(L->backs[i].file);
    free(L->backs);
    lower_free(L);
}

/* ns's module linked with the runtime (bitcode.c), optimised and
   JIT-compiled, with "shade" (and "prelude") found and the optimised
   module kept as text; false with ns->error (the module taken either
   way). */
static bool compile_module(NativeShader *ns)
{
    char *msg = NULL;
    LLVMTargetMachineRef tm = nj_target_machine(ns->isa, &msg);
    void *fn = NULL;
    if (tm)
        nj_set_target(ns->mod, tm);
    if (!tm || (msg = nb_link_runtime(ns->mod))) {
        ns->error = failure(ns->name, tm ? "the runtime's bitcode" : "LLVM's target machine", msg);
        LLVMDisposeModule(ns->mod);
    } else if ((msg = nj_optimize(ns->mod, tm, ns->level))) {
        ns->error = failure(ns->name, "LLVM's optimisation", msg);
        LLVMDisposeModule(ns->mod);
    } else {
        if (ns->keep_llvm)
            ns->llvm_text = LLVMPrintModuleToString(ns->mod);
        if (!(ns->jit = nj_compile(ns->tsc, ns->mod, ns->isa, "shade", &fn, &msg))
            || (ns->drows && !(ns->prelude = (ShadeFn)nj_lookup(ns->jit, "prelude", &msg))))
            ns->error = failure(ns->name, "the JIT", msg);
    }
    ns->mod = NULL;
    ns->shade = (ShadeFn)fn;
    if (tm)
        LLVMDisposeTargetMachine(tm);
    size_t size;
    const void *code = !ns->error && ns->cache ? nj_object(ns->jit, &size) : NULL;
    if (code)
        ncache_store(ns->cache, ns->key, code, size);
    LLVMOrcDisposeThreadSafeContext(ns->tsc);
    ns->tsc = NULL;
    return !ns->error;
}

/* The code of ns's module from cache c under ns->key (computed here),
   with "shade" in *fn, or NULL on a miss; the module is kept for
   compiling. */
static NativeJit *load_cached(NativeCache *c, NativeShader *ns, void **fn)
{
    ncache_key(c, ns->mod, ns->isa, ns->level, ns->key);
    size_t size;
    char *obj = ncache_load(c, ns->key, &size), *msg = NULL;
    NativeJit *jit = obj ? nj_load(obj, size, ns->isa, "shade", fn, &msg) : NULL;
    if (obj && !jit) /* a sound entry LLJIT refuses: LLVM's to say why */
        fprintf(stderr, "warning: code cache entry for '%s' does not load: %s; compiling again\n",
                ns->name, msg);
    free(msg);
    free(obj);
    return jit;
}

/* A shader as lowering left L (its module in tsc), its code not yet
   compiled, or read from the code cache (then its "shade" in *fn). */
static NativeShader *lowered(Lower *L, LLVMOrcThreadSafeContextRef tsc, NativeIsa isa,
                             const NativeOptions *opt)
{
    NativeShader *ns = calloc(1, sizeof *ns);
    void *fn = NULL;
    *ns = (NativeShader){ .isa = isa, .W = L->W, .drows = L->drows, .tsc = tsc, .mod = L->mod,
                          .level = opt->level, .keep_llvm = opt->keep_llvm, .cache = opt->cache,
                          .name = strdup(L->fn->name),
                          .state = NS_PENDING };
    pthread_mutex_init(&ns->lock, NULL);
    pthread_cond_init(&ns->done, NULL);
    ns->callees = L->callees, ns->ncallees = L->ncallees, L->callees = NULL;
    ns->sites = L->sites, ns->nsites = L->nsites, L->sites = NULL, L->nsites = 0;
    ns->backs = L->backs, ns->nbacks = L->nbacks, L->backs = NULL, L->nbacks = 0;
    L->mod = NULL;
    if (opt->cache && (ns->jit = load_cached(opt->cache, ns, &fn))) {
        char *msg = NULL;
        ns->shade = (ShadeFn)fn;
        ns->cached = true;
        if (ns->drows && !(ns->prelude = (ShadeFn)nj_lookup(ns->jit, "prelude", &msg)))
            ns->error = failure(ns->name, "the JIT", msg);
        ns->state = ns->error ? NS_FAILED : NS_READY;
    }
    if (ns->state != NS_PENDING) {
        LLVMDisposeModule(ns->mod);
        LLVMOrcDisposeThreadSafeContext(ns->tsc);
        ns->mod = NULL, ns->tsc = NULL;
    }
    return ns;
}

NativeShader *native_compile(RslcCtx *rc, IrFunc *shader, const VmObject *obj,
                             const NativeOptions *opt)
{
    double t0 = now_ms();
    NativeIsa isa = opt->isa == NATIVE_ISA_AUTO ? native_isa_best() : opt->isa;
    if (opt->lacks && opt->lackslen > 0)
        opt->lacks[0] = '\0';
    if (isa == NATIVE_ISA_AUTO)
        return fail(rc, shader, "the CPU", strdup("it has not even SSE4.2"));
    if (isa != NATIVE_ISA_SCALAR && isa > native_isa_best())
        return fail(rc, shader, "the CPU", strdup("it lacks the ISA asked for"));
    /* Here, on the caller's thread, before native_finish may run on
       others. */
    nj_init();
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    Lower L;
    nj_quiet(LLVMOrcThreadSafeContextGetContext(tsc));
    NativeShader *ns = NULL;
    if (nl_lower(&L, rc, shader, obj, opt, LLVMOrcThreadSafeContextGetContext(tsc),
                 native_isa_width(isa), false))
        ns = lowered(&L, tsc, isa, opt);
    else
        LLVMOrcDisposeThreadSafeContext(tsc);
    nl_lower_done(&L);
    if (ns)
        ns->ms = now_ms() - t0;
    /* Code from the code cache that does not bind fails here either way. */
    if (ns && (!opt->defer || ns->state == NS_FAILED) && !native_finish(ns)) {
        diag_error(rc, shader->loc, "%s", ns->error);
        native_free(ns);
        ns = NULL;
    }
    return ns;
}

bool native_finish(NativeShader *ns)
{
    pthread_mutex_lock(&ns->lock);
    if (ns->state == NS_PENDING) {
        ns->state = NS_COMPILING;
        pthread_mutex_unlock(&ns->lock);
        double t0 = now_ms();
        bool ok = compile_module(ns);
        ns->ms += now_ms() - t0;
        pthread_mutex_lock(&ns->lock);
        ns->state = ok ? NS_READY : NS_FAILED;
        pthread_cond_broadcast(&ns->done);
    }
    while (ns->state == NS_COMPILING)
        pthread_cond_wait(&ns->done, &ns->lock);
    bool ready = ns->state == NS_READY;
    pthread_mutex_unlock(&ns->lock);
    return ready;
}

const char *native_error(const NativeShader *ns)
{
    return ns->error;
}

void native_free(NativeShader *ns)
{
    if (!ns)
        return;
    nj_free(ns->jit);
    free(ns->callees);
    for (int i = 0; i < ns->nsites; i++)
        free(ns->sites[i].file);
    free(ns->sites);
    for (int i = 0; i < ns->nbacks; i++)
        free(ns->backs[i].file);
    free(ns->backs);
    LLVMDisposeMessage(ns->llvm_text);
    if (ns->mod)
        LLVMDisposeModule(ns->mod);
    if (ns->tsc)
        LLVMOrcDisposeThreadSafeContext(ns->tsc);
    free(ns->name);
    free(ns->error);
    pthread_mutex_destroy(&ns->lock);
    pthread_cond_destroy(&ns->done);
    free(ns);
}

NativeIsa native_isa(const NativeShader *ns)
{
    return ns->isa;
}

double native_compile_ms(const NativeShader *ns)
{
    return ns->ms;
}

bool native_from_cache(const NativeShader *ns)
{
    return ns->cached;
}

void native_print_llvm(const NativeShader *ns, FILE *out)
{
    fputs(ns->llvm_text ? ns->llvm_text
          : ns->cached ? "; read from the code cache: no LLVM IR kept\n"
                       : "; no LLVM IR kept: compiled without NativeOptions.keep_llvm\n", out);
}

/* ---- running ------------------------------------------------------------------ */

int native_session_open(NativeSession *nss, NativeShader *ns, VmSession *vm,
                        const struct VmHost *host, char *err, int errlen)
{
    *nss = (NativeSession){ ns, vm, calloc((size_t)ns->ncallees + 1, sizeof *nss->builtins), host };
    /* Compiled here if no other thread has begun to; one whose compile
       failed opens, and its runs fail (native_session_run). */
    native_finish(ns);
    if (!nss->builtins) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    if (vm_bind_builtins(nss->builtins, ns->callees, (uint32_t)ns->ncallees,
                         vm->strings, host, err, errlen)) {
        native_session_close(nss);
        return -1;
    }
    for (int i = 0; i < ns->ncallees; i++)
        nss->builtins[i].shader = vm->obj->name;
    return 0;
}

void native_session_close(NativeSession *nss)
{
    free(nss->builtins);
    memset(nss, 0, sizeof *nss);
}

/* The lanes of the W from base that run (in the batch, and requested
   unless all is set); whether any does. */
static bool group_lanes(const VmState *s, int base, int W, bool all, int32_t *lanes)
{
    bool any = false;
    for (int i = 0; i < W; i++) {
        int l = base + i;
        lanes[i] = l < s->n && (all || !s->active || s->active[l]);
        any |= lanes[i] != 0;
    }
    return any;
}

/* Runs the prelude over the batch, filling rt's buffer, which it
   allocates: rows of n floats rounded up to whole groups. It runs at the
   points not requested too: a requested point's derivative needs its
   neighbours' values, as the VM reads them there. */
static int run_prelude(const NativeShader *ns, const float *Uin, VmState *s, NativeRt *rt)
{
    int W = ns->W;
    int32_t lanes[16];
    rt->dstride = (s->n + W - 1) / W * W;
    rt->dbuf = calloc((size_t)ns->drows * (size_t)rt->dstride + 1, sizeof *rt->dbuf);
    if (!rt->dbuf)
        return -1;
    for (int base = 0; base < s->n; base += W)
        if (group_lanes(s, base, W, true, lanes)) {
            for (int i = 0; i < ns->nsites; i++)
                rt->memo[i].used = 0;
            ns->prelude(Uin, s->U, s->V, s->n, base, lanes, rt);
            rt->later = true;
        }
    rt->later = false;
    return 0;
}

int native_session_run(NativeSession *nss, VmState *s, char *err, int errlen)
{
    const NativeShader *ns = nss->ns;
    int W = ns->W;
    if (ns->error) {
        snprintf(err, (size_t)errlen, "%s", ns->error);
        return -1;
    }
    /* The step budget (s->max_steps, 0: none) counts loop iterations. */
    NativeRt rt = { s->max_steps && s->max_steps < INT64_MAX ? (int64_t)s->max_steps : INT64_MAX, 0,
                    s, nss->builtins, ns->sites, W,
                    calloc((size_t)ns->nsites + 1, sizeof *rt.memo), false, NULL, 0, { 0 } };
    int32_t lanes[16];
    size_t nu = nss->vm->prog.nuniform;
    float *Uin = malloc((nu + 1) * sizeof *Uin);
    /* The lights' samples are kept through the batch: the host's lights
       stay as they are while a shader runs. */
    bool lights = rsl_lights_open(&rt.lights, nss->host, true);
    if (!Uin || !rt.memo || !lights) {
        free(Uin);
        free(rt.memo);
        rsl_lights_close(&rt.lights);
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    memcpy(Uin, s->U, nu * sizeof *Uin);
    int rc = 0;
    if (ns->prelude && run_prelude(ns, Uin, s, &rt) < 0) {
        snprintf(err, (size_t)errlen, "out of memory");
        rc = -1;
    }
    for (int base = 0; rc == 0 && base < s->n; base += W) {
        if (group_lanes(s, base, W, false, lanes)) {
            for (int i = 0; i < ns->nsites; i++)
                rt.memo[i].used = 0;
            ns->shade(Uin, s->U, s->V, s->n, base, lanes, &rt);
            rt.later = true;
        }
        if (rt.overrun) {
            const NativeBack *at = &ns->backs[rt.overrun - 1];
            const VmSession *vm = nss->vm;
            snprintf(err, (size_t)errlen, "%s%serror: shader '%s' ran past %llu steps at %s:%d",
                     vm->program ? vm->program : "", vm->program ? ": " : "", vm->obj->name,
                     (unsigned long long)s->max_steps, at->file, at->line);
            rc = -1;
            break;
        }
        if (s->fault[0]) {
            snprintf(err, (size_t)errlen, "%s:%u: error: %s", s->fault_file ? s->fault_file : "?",
                     s->fault_line, s->fault);
            rc = -1;
            break;
        }
    }
    for (int i = 0; i < ns->nsites; i++)
        free(rt.memo[i].vals);
    free(rt.memo);
    free(rt.dbuf);
    rsl_lights_close(&rt.lights);
    free(Uin);
    return rc;
}
