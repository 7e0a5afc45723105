/*
** fuzz_object.c: libFuzzer harness for the shader object loader: any
** bytes must give an object that passed the verifier, or an error
** message, and never a crash, leak or undefined behaviour.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vm/object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    VmObject *o = vm_object_parse(data, size, "fuzz.o", err, sizeof err);
    if (!o && strncmp(err, "fuzz.o: error: ", 15) != 0)
        __builtin_trap();
    vm_object_free(o);
    return 0;
}
