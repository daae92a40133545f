/** The little of ssh2-sftp-client the roster uses (the package ships no types). */
declare module 'ssh2-sftp-client' {
  type ConnectOptions = {
    host: string;
    port?: number;
    username: string;
    password?: string;
    privateKey?: string;
    readyTimeout?: number;
    timeout?: number;
    retries?: number;
    /** Called with the server's host key; not checked here (see decision 061). */
    hostVerifier?: (key: Buffer) => boolean;
  };
  type FileStats = { size: number; isFile: boolean };
  export default class SftpClient {
    constructor(name?: string);
    connect(options: ConnectOptions): Promise<unknown>;
    stat(path: string): Promise<FileStats>;
    get(path: string): Promise<Buffer | string | NodeJS.WritableStream>;
    end(): Promise<boolean>;
  }
}
