/* Pays qna-server's price for a new identity (extension identityWork), natively: the crowd
 * bench's page-like clients pay with it (standing in for a phone's page, which is slower),
 * and so does its attacker, on the cores it is given. One request per line on stdin,
 * "CONNECTION-UUID BITS COUNT"; one answer per line, the COUNT nonces. The rounds use the
 * SHA extensions where the compiler targets them (-march=native on a CPU with sha_ni), for
 * the rounds and the message schedule both, else plain C. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__SHA__) && defined(__SSE4_1__)
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};
static const uint32_t H[8] = {
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* The digest's first word of the block whose first 16 words are in w. */
static uint32_t first_word(uint32_t w[64]) {
#if defined(__SHA__) && defined(__SSE4_1__)
  /* The state as the instructions want it: ABEF and CDGH, A in the highest lane; the
   * schedule four words at a time, x[g % 4] holding words 4g..4g+3 for round group g. */
  __m128i abef = _mm_set_epi32((int)H[0], (int)H[1], (int)H[4], (int)H[5]);
  __m128i cdgh = _mm_set_epi32((int)H[2], (int)H[3], (int)H[6], (int)H[7]);
  __m128i x[4];
  for (int i = 0; i < 4; i++) x[i] = _mm_loadu_si128((const __m128i *)&w[4 * i]);
  for (int g = 0; g < 16; g++) {
    __m128i msg = _mm_add_epi32(x[g % 4], _mm_loadu_si128((const __m128i *)&K[4 * g]));
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
    if (g >= 3 && g <= 14) {
      __m128i next = _mm_add_epi32(x[(g + 1) % 4], _mm_alignr_epi8(x[g % 4], x[(g + 3) % 4], 4));
      x[(g + 1) % 4] = _mm_sha256msg2_epu32(next, x[g % 4]);
    }
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(msg, 0x0E));
    if (g >= 1 && g <= 12) x[(g + 3) % 4] = _mm_sha256msg1_epu32(x[(g + 3) % 4], x[g % 4]);
  }
  return (uint32_t)_mm_extract_epi32(abef, 3) + H[0];
#else
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  return a + H[0];
#endif
}

static int parse_uuid(const char *text, uint8_t out[16]) {
  int n = 0;
  for (const char *p = text; *p && n < 32; p++) {
    int v;
    if (*p == '-') continue;
    if (*p >= '0' && *p <= '9') v = *p - '0';
    else if (*p >= 'a' && *p <= 'f') v = *p - 'a' + 10;
    else if (*p >= 'A' && *p <= 'F') v = *p - 'A' + 10;
    else return 0;
    if (n % 2 == 0) out[n / 2] = (uint8_t)(v << 4); else out[n / 2] |= (uint8_t)v;
    n++;
  }
  return n == 32;
}

int main(void) {
  char line[256], id[64];
  int bits, count;
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    uint8_t bytes[16];
    if (sscanf(line, "%63s %d %d", id, &bits, &count) != 3 || !parse_uuid(id, bytes)
        || bits < 1 || bits > 32 || count < 1 || count > 256) {
      printf("error\n");
      continue;
    }
    for (int index = 0; index < count; index++) {
      uint32_t w[64] = {0};
      for (int i = 0; i < 16; i++) w[i / 4] |= (uint32_t)bytes[i] << (24 - 8 * (i % 4));
      w[5] = ((uint32_t)index << 24) | (0x80u << 16);
      w[15] = 21 * 8;
      uint32_t nonce = 0;
      for (;; nonce++) {
        w[4] = nonce;
        if (first_word(w) >> (32 - bits) == 0) break;
      }
      printf(index + 1 < count ? "%u " : "%u\n", nonce);
    }
  }
  return 0;
}
