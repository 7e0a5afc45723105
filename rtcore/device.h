/*
** device.h: the device object and the error reporting every entry point
** uses. Errors are sticky: the first one since the last rtGetDeviceError
** is kept; the callback hears all of them.
*/
#ifndef RTCORE_DEVICE_H
#define RTCORE_DEVICE_H

#include <stdatomic.h>
#include "rtcore/dispatch.h"

struct RTDeviceTy {
    atomic_int refs;              /* the user's, plus one per live scene */
    atomic_int error;             /* sticky RTError */
    RTErrorFunction fn;
    void *user;
    int threads;                  /* build threads, >= 1 */
    const RtKernels *kernels;
};

/* Records an error on d, or, when d is NULL, on the calling thread (read
   back by rtGetDeviceError(NULL)), and calls the callback. */
void rt_error(RTDevice d, RTError code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void rt_device_retain(RTDevice d);
void rt_device_release(RTDevice d);

#endif
