/*
** device.c: devices (settings, kernel choice, lifetime) and the sticky
** error with its callback.
*/
#include "config.h"
#include "rtcore/device.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Errors of calls that had no device to hold them (a NULL handle, a
   failed rtNewDevice). */
static _Thread_local RTError orphan_error;

void rt_error(RTDevice d, RTError code, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d) {
        if (orphan_error == RT_ERROR_NONE)
            orphan_error = code;
        return;
    }
    int none = RT_ERROR_NONE;
    atomic_compare_exchange_strong(&d->error, &none, (int)code);
    if (d->fn)
        d->fn(d->user, code, msg);
}

/* Reads "threads=N" and "isa=NAME" settings; 0 threads means all cores. */
static int parse_config(const char *config, int *threads, char *isa, size_t isalen)
{
    while (config && *config) {
        const char *end = strchr(config, ',');
        size_t len = end ? (size_t)(end - config) : strlen(config);
        char item[64];
        if (len == 0 || len >= sizeof item)
            return 0;
        memcpy(item, config, len);
        item[len] = 0;
        char *eq = strchr(item, '=');
        if (!eq)
            return 0;
        *eq++ = 0;
        if (!strcmp(item, "threads")) {
            char *stop;
            errno = 0;
            long n = strtol(eq, &stop, 10);
            if (stop == eq || *stop || errno || n < 0 || n > 1024)
                return 0;
            *threads = (int)n;
        } else if (!strcmp(item, "isa") && strlen(eq) < isalen) {
            strcpy(isa, eq);
        } else {
            return 0;
        }
        config = end ? end + 1 : NULL;
        if (config && !*config)
            return 0;       /* a trailing comma */
    }
    return 1;
}

RTDevice rtNewDevice(const char *config)
{
    int threads = 0;
    char isa[16] = "auto";
    if (!parse_config(config, &threads, isa, sizeof isa)) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtNewDevice: bad config \"%s\"", config);
        return NULL;
    }
    RTError err;
    const RtKernels *k = rt_pick_kernels(isa, &err);
    if (!k) {
        rt_error(NULL, err, "rtNewDevice: isa \"%s\" unknown or unsupported", isa);
        return NULL;
    }
    RTDevice d = calloc(1, sizeof *d);
    if (!d) {
        rt_error(NULL, RT_ERROR_OUT_OF_MEMORY, "rtNewDevice: out of memory");
        return NULL;
    }
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    atomic_init(&d->refs, 1);
    atomic_init(&d->error, RT_ERROR_NONE);
    d->threads = threads;
    d->kernels = k;
    return d;
}

void rt_device_retain(RTDevice d)
{
    atomic_fetch_add(&d->refs, 1);
}

void rt_device_release(RTDevice d)
{
    if (atomic_fetch_sub(&d->refs, 1) == 1)
        free(d);
}

void rtReleaseDevice(RTDevice device)
{
    if (!device) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtReleaseDevice: NULL device");
        return;
    }
    rt_device_release(device);
}

RTError rtGetDeviceError(RTDevice device)
{
    if (!device) {
        RTError e = orphan_error;
        orphan_error = RT_ERROR_NONE;
        return e;
    }
    return (RTError)atomic_exchange(&device->error, RT_ERROR_NONE);
}

void rtSetDeviceErrorFunction(RTDevice device, RTErrorFunction fn, void *user)
{
    if (!device) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtSetDeviceErrorFunction: NULL device");
        return;
    }
    device->fn = fn;
    device->user = user;
}

const char *rtGetDeviceISA(RTDevice device)
{
    if (!device) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtGetDeviceISA: NULL device");
        return "";
    }
    return device->kernels->isa;
}
