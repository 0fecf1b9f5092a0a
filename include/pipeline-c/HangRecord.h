/*===- HangRecord.h - the hang report's record and site table -----*- C -*-===*\
|*                                                                            *|
|* The one description of what a kernel compiled with the hang report       *|
|* (pipeline-compile --hang-report, hang-report=N) writes when a wait hangs, *|
|* and of the site table that names its waits. The lowering writes it, the   *|
|* C++ runtime (pmrt) and the Python launcher read it: all three include    *|
|* or call this header (Python through pmlirFormatHangReport of the C API). *|
|* Plain C, no dependencies: a host program that loads the cubin itself     *|
|* reads the record with it too (docs/debugging.md).                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PIPELINE_C_HANGRECORD_H
#define PIPELINE_C_HANGRECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The module's global the host stores the record's device address in (a
 * u64; 0: no record, the waits trap without writing one). */
#define PMLIR_HANG_BUFFER_SYMBOL "__pipeline_hang_buffer"
/* The module's global holding the site table: NUL-terminated text, one line
 * per wait site, "id|pipeline name|location of the wait|role". The pipeline
 * name is its pipeline.create's `name` attribute, else its location. */
#define PMLIR_HANG_SITES_SYMBOL "__pipeline_hang_sites"
#define PMLIR_HANG_SITE_SEPARATOR '|'
/* The module's global naming the barriers of each pipeline.init_mbars, for
 * tools that report on barriers (pipeline-sim): NUL-terminated text, one
 * line per init_mbars, "location of the init|pipeline name|full barriers|
 * barriers". Its thread initializes the full barriers, then the empty ones,
 * consecutively from the pipeline's first barrier. */
#define PMLIR_BARRIER_NAMES_SYMBOL "__pipeline_mlir_barriers"

/* The record: 32-bit words, in host-visible memory (mapped pinned memory, so
 * that the host reads it while the kernel still waits or after it trapped).
 * The first thread of the grid to hang claims it (word STATE from FREE to
 * WRITING, compare-and-swap), fills it, fences at system scope and sets
 * STATE to WRITTEN. */
typedef enum PmlirHangWord {
  PMLIR_HANG_STATE = 0,
  PMLIR_HANG_SITE,   /* the site id: a line of the site table */
  PMLIR_HANG_STAGE,  /* the stage the role waits for */
  PMLIR_HANG_PARITY, /* the phase parity it waits for */
  PMLIR_HANG_LAP,    /* the role's completed laps of the ring */
  PMLIR_HANG_CTA_X,  /* blockIdx */
  PMLIR_HANG_CTA_Y,
  PMLIR_HANG_CTA_Z,
  PMLIR_HANG_WARP,         /* linear thread id / 32 */
  PMLIR_HANG_LANE,         /* linear thread id % 32 */
  PMLIR_HANG_CLUSTER_RANK, /* %cluster_ctarank */
  PMLIR_HANG_MAGIC,        /* PMLIR_HANG_MAGIC_VALUE once written */
  PMLIR_HANG_NUM_WORDS
} PmlirHangWord;

typedef enum PmlirHangState {
  PMLIR_HANG_FREE = 0,
  PMLIR_HANG_WRITING = 1,
  PMLIR_HANG_WRITTEN = 2
} PmlirHangState;

#define PMLIR_HANG_MAGIC_VALUE 0x50484E47u /* "PHNG" */
/* The bytes a host allocates for the record (room to grow). */
#define PMLIR_HANG_RECORD_BYTES 64

/* Formats a written record as the report every runtime prints:
 *   hang: pipeline "<name>" (<location>), <role> waits for stage S parity P,
 *   lap L, CTA (x,y,z) warp W lane N (cluster rank R)
 * with the site looked up in `sites` (`sitesLength` bytes of the site
 * table). Writes at most `outSize` bytes including the NUL; returns 0 and
 * writes "" when the record is not written yet, 1 otherwise. */
static inline int pmlirFormatHangRecord(const uint32_t *record,
                                        const char *sites, size_t sitesLength,
                                        char *out, size_t outSize) {
  if (outSize == 0)
    return 0;
  out[0] = '\0';
  if (record[PMLIR_HANG_STATE] != PMLIR_HANG_WRITTEN)
    return 0;
  if (record[PMLIR_HANG_MAGIC] != PMLIR_HANG_MAGIC_VALUE) {
    snprintf(out, outSize,
             "hang: a record without the hang report's magic number");
    return 1;
  }
  /* The site's line: "id|pipeline|location|role". */
  char id[16];
  int idLength = snprintf(id, sizeof(id), "%u", record[PMLIR_HANG_SITE]);
  const char *fields[3] = {"?", "?", "?"};
  int lengths[3] = {1, 1, 1};
  const char *line = sites, *end = sites + sitesLength;
  while (line < end && *line) {
    const char *eol = (const char *)memchr(line, '\n', (size_t)(end - line));
    if (!eol)
      eol = end;
    const char *bar = (const char *)memchr(line, PMLIR_HANG_SITE_SEPARATOR,
                                           (size_t)(eol - line));
    if (bar && bar - line == idLength &&
        memcmp(line, id, (size_t)idLength) == 0) {
      const char *field = bar + 1;
      for (int i = 0; i < 3 && field <= eol; ++i) {
        const char *stop =
            i < 2 ? (const char *)memchr(field, PMLIR_HANG_SITE_SEPARATOR,
                                         (size_t)(eol - field))
                  : eol;
        if (!stop)
          break;
        fields[i] = field;
        lengths[i] = (int)(stop - field);
        field = stop + 1;
      }
    }
    line = eol + 1;
  }
  snprintf(out, outSize,
           "hang: pipeline \"%.*s\" (%.*s), %.*s waits for stage %u parity "
           "%u, lap %u, CTA (%u,%u,%u) warp %u lane %u (cluster rank %u)",
           lengths[0], fields[0], lengths[1], fields[1], lengths[2], fields[2],
           record[PMLIR_HANG_STAGE], record[PMLIR_HANG_PARITY],
           record[PMLIR_HANG_LAP], record[PMLIR_HANG_CTA_X],
           record[PMLIR_HANG_CTA_Y], record[PMLIR_HANG_CTA_Z],
           record[PMLIR_HANG_WARP], record[PMLIR_HANG_LANE],
           record[PMLIR_HANG_CLUSTER_RANK]);
  return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* PIPELINE_C_HANGRECORD_H */
