// Types of merge-mac-feed.mjs for the TypeScript tests (the script itself runs as plain Node ESM).
export declare function mergeMacFeeds(feeds: { label: string; text: string }[]): string
