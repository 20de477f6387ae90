export declare const NODE_VERSION: string;
export declare const MIN_NODE_MAJOR: number;
export declare const nodeDir: string;
export declare const nodeTarget: string;
export declare function nodeBinaryVersion(file: string): string | null;
export declare function installNode(): string;
export declare function serverNode(current?: string, execPath?: string): string;
