/*
** sha256.h: SHA-256 (FIPS 180-4), the code cache's key and checksum
** (codecache.c): a strong hash, so that two different inputs never share
** an entry.
*/
#ifndef BACKENDS_NATIVE_SHA256_H
#define BACKENDS_NATIVE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct Sha256 {
    uint32_t h[8];
    uint64_t len;               /* bytes hashed so far */
    unsigned char block[64];    /* the partial block */
} Sha256;

void sha256_init(Sha256 *s);
void sha256_add(Sha256 *s, const void *data, size_t n);
void sha256_done(Sha256 *s, unsigned char digest[32]);

#endif /* BACKENDS_NATIVE_SHA256_H */
