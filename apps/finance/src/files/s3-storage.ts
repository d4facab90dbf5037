import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { FILE_LIMITS } from '@libs/contracts';
import type { FinanceConfig } from '../config';
import { fixedChunks, type FileStorage } from './file-storage';

/** S3's smallest part but the last: what one upload holds in memory at most. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * An S3-compatible bucket (FILE_STORAGE=s3): each file one object, written as a multipart upload of 5 MB parts (the
 * upload is aborted on failure, so a refused file leaves no parts behind), read with a Range request.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: Pick<FinanceConfig, 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>) {
    this.bucket = config.S3_BUCKET;
    this.client = new S3Client({
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.S3_ACCESS_KEY_ID ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } } : {}),
    });
  }

  async write(id: string, bytes: AsyncIterable<Buffer>): Promise<void> {
    const key = { Bucket: this.bucket, Key: id };
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(key));
    try {
      const parts: { ETag?: string; PartNumber: number }[] = [];
      for await (const part of fixedChunks(bytes, PART_BYTES)) {
        const PartNumber = parts.length + 1;
        const { ETag } = await this.client.send(new UploadPartCommand({ ...key, UploadId, PartNumber, Body: part }));
        parts.push({ ETag, PartNumber });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ ...key, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand({ ...key, UploadId }));
      throw error;
    }
  }

  async *read(id: string, offset: number, length: number): AsyncIterable<Buffer> {
    if (length === 0) return;
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: id, Range: `bytes=${offset}-${offset + length - 1}` }));
    const body = answer.Body as Readable;
    try {
      for await (const piece of body as AsyncIterable<Buffer>) {
        for (let at = 0; at < piece.length; at += FILE_LIMITS.chunkBytes) yield piece.subarray(at, at + FILE_LIMITS.chunkBytes);
      }
    } finally {
      body.destroy();
    }
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: ids.map((Key) => ({ Key })), Quiet: true } }));
  }
}
