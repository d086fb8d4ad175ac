/**
 * Files on the user's computer that the host reads for a page upload (`bridge/files/read`): the extension asks only
 * after the user approved that upload, naming the files and the site. Only absolute paths of regular files are read;
 * directories, devices, pipes and sockets are refused, whatever a symlink points at.
 */
import { z } from 'zod';

/** `bridge/files/read` (to the host): describe files by absolute path, and with `bytes` return their content. */
export const BridgeFilesReadParams = z
  .looseObject({
    paths: z
      .array(z.string().min(1).max(4096))
      .min(1)
      .max(20)
      .describe('Absolute paths of regular files on this computer.'),
    bytes: z
      .boolean()
      .optional()
      .describe(
        "Also return each file's content as base64, at most 32 MiB in all (default false: only check and describe them).",
      ),
  })
  .describe(
    '`bridge/files/read` (to the host): describe files by absolute path, and with `bytes` return their content.',
  );
export type BridgeFilesReadParams = z.infer<typeof BridgeFilesReadParams>;

/** One file as the host found it. */
export const BridgeFileInfo = z
  .looseObject({
    path: z.string().describe('The path as asked for.'),
    name: z.string().describe('Its file name.'),
    type: z.string().describe('Its MIME type, from its extension (application/octet-stream when unknown).'),
    size: z.number().int().nonnegative().describe('Its size in bytes.'),
    base64: z.string().optional().describe('Its content, when asked for with `bytes`.'),
  })
  .describe('One file as the host found it.');
export type BridgeFileInfo = z.infer<typeof BridgeFileInfo>;

/** The files, in the order asked for. */
export const BridgeFilesReadResult = z
  .looseObject({ files: z.array(BridgeFileInfo) })
  .describe('The files, in the order asked for.');
export type BridgeFilesReadResult = z.infer<typeof BridgeFilesReadResult>;
