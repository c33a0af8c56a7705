/**
 * Generated from Herald's OpenAPI document (GET /v1/openapi.json) by `npm run gen:api`
 * (test/web/openapi-client.test.ts). Do not edit by hand.
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Database reachability, the workers' last heartbeat and the upload disk's free space */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: {
                                error?: string;
                                latencyMs?: number;
                                ok: boolean;
                            };
                            /** @description True in sandbox mode (HERALD_SANDBOX=on): platforms are local simulators */
                            sandbox: boolean;
                            status: "ok" | "degraded";
                            storage: {
                                error?: string;
                                /** @description Free space of the disk uploads are written to (the media folder on local storage, and the staging folder) */
                                freeBytes: number | null;
                                /** @description Media storage backend; uploads are staged on local disk either way */
                                kind: "local" | "s3";
                                /** @description When a write last failed for a full disk, while it counts */
                                lastFullAt: string | null;
                                minFreeBytes: number;
                                /** @description False while free space is under HERALD_MEDIA_MIN_FREE_MB, or after a write failed for a full disk (until one succeeds, at most 10 minutes) */
                                ok: boolean;
                            };
                            time: string;
                            worker: {
                                lastHeartbeat: string | null;
                                ok: boolean;
                                workers: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database: {
                                error?: string;
                                latencyMs?: number;
                                ok: boolean;
                            };
                            /** @description True in sandbox mode (HERALD_SANDBOX=on): platforms are local simulators */
                            sandbox: boolean;
                            status: "ok" | "degraded";
                            storage: {
                                error?: string;
                                /** @description Free space of the disk uploads are written to (the media folder on local storage, and the staging folder) */
                                freeBytes: number | null;
                                /** @description Media storage backend; uploads are staged on local disk either way */
                                kind: "local" | "s3";
                                /** @description When a write last failed for a full disk, while it counts */
                                lastFullAt: string | null;
                                minFreeBytes: number;
                                /** @description False while free space is under HERALD_MEDIA_MIN_FREE_MB, or after a write failed for a full disk (until one succeeds, at most 10 minutes) */
                                ok: boolean;
                            };
                            time: string;
                            worker: {
                                lastHeartbeat: string | null;
                                ok: boolean;
                                workers: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status of a client upload; its files entry once completed
         * @description Authorised by the upload token from POST /v1/media (Authorization: Bearer <token>), not by an API key.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description uploadId from POST /v1/media */
                    uploadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            contentType: string;
                            error?: string;
                            /** Format: date-time */
                            expiresAt: string;
                            filename: string;
                            /** @description Once completed: the same entry as a multipart upload */
                            files?: {
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                            /** @description Bytes received so far */
                            offset: number;
                            /** @description Declared size, bytes */
                            size: number;
                            status: "pending" | "uploading" | "processing" | "completed" | "failed" | "cancelled" | "expired";
                            uploadId: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * tus: cancel a client upload and delete its bytes
         * @description Authorised by the upload token from POST /v1/media (Authorization: Bearer <token>), not by an API key.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description uploadId from POST /v1/media */
                    uploadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * tus: send bytes of a client upload (Content-Type: application/offset+octet-stream, Upload-Offset)
         * @description Authorised by the upload token from POST /v1/media (Authorization: Bearer <token>), not by an API key.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description uploadId from POST /v1/media */
                    uploadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The last byte arrived; the file is stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/uploads/presigned/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload the file of a presigned upload (the uploadUrl of POST /v1/media/presign)
         * @description The whole file as the body, with `Content-Type` exactly the contentType given to POST /v1/media/presign. Authorised by the token in the URL (single use, one hour), not by an API key.
         */
        put: {
            parameters: {
                query?: {
                    /** @description The upload URL's single-use token (part of uploadUrl) */
                    token?: string;
                };
                header?: never;
                path: {
                    /** @description From the uploadUrl of POST /v1/media/presign */
                    uploadId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Stored; the file is at the publicUrl of the presign answer */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List account groups */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            groups: {
                                _id: string;
                                /** @description Connected accounts, in the order given (accounts disconnected since are left out) */
                                accountIds: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The user who created the group */
                                createdBy: string;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an account group
         * @description A named set of connected accounts across profiles, for cross-posting. `profileId` is accepted for compatibility and ignored: groups are not scoped to one profile.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Connected account ids (1 to 100, any profiles) */
                        accountIds: string[];
                        /** @description 1 to 100 characters; unique within your account */
                        name: string;
                        /** @description Deprecated; ignored */
                        profileId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            group: {
                                _id: string;
                                /** @description Connected accounts, in the order given (accounts disconnected since are left out) */
                                accountIds: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The user who created the group */
                                createdBy: string;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account-groups/{groupId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Rename an account group or replace its accounts */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    groupId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Connected account ids (1 to 100, any profiles) */
                        accountIds?: string[];
                        /** @description 1 to 100 characters; unique within your account */
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            group: {
                                _id: string;
                                /** @description Connected accounts, in the order given (accounts disconnected since are left out) */
                                accountIds: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** @description The user who created the group */
                                createdBy: string;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Delete an account group (its accounts stay connected) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    groupId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List connected accounts */
        get: {
            parameters: {
                query?: {
                    includeOverLimit?: boolean;
                    /** @description Object id (24 hex characters) */
                    profileId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accounts: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            }[];
                            hasAnalyticsAccess: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update an account's username or display name */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        displayName?: string;
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            displayName: string;
                            message: string;
                            username: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Disconnect an account */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Move an account to another profile and/or change its display settings
         * @description Moves the account to `profileId` (posts already created keep their targets on the account; 409 when the profile already has this platform account) and/or changes its `username` and `displayName` as PUT does; at least one of them. Any other field is refused (400 naming it).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        displayName?: string;
                        /** @description The profile to move the account to */
                        profileId?: string;
                        username?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            displayName: string;
                            message: string;
                            profileId: string;
                            username: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/accounts/{accountId}/facebook-page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the Facebook pages an account can switch to, and its current page
         * @description Read from Facebook with the stored user authorization: pages whose tasks include MANAGE. No tokens are returned.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pages: {
                                category: string;
                                id: string;
                                name: string;
                                picture: string | null;
                            }[];
                            selectedPageId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Switch the Facebook page an account publishes to
         * @description The page must be one the connected user administers, its tasks including MANAGE (403 saying so otherwise).
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        selectedPageId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                            selectedPage: {
                                id: string;
                                name: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/gmb-locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the Google Business Profile locations an account can publish to, and its current one
         * @description Read from Google with the account's authorization (Account Management accounts.list, Business Information accounts.locations.list). `search` filters on the business name; `limit` (default 100, at most 500) caps the answer, `hasMore` saying more matched.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    search?: string;
                };
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cached: boolean;
                            hasMore: boolean;
                            locations: {
                                /** @description The Business Profile account that holds it: accounts/<id> */
                                accountId: string;
                                accountName: string;
                                address: string;
                                category: string;
                                /** @description The location id (digits); `locations/<id>` in Google's resource names */
                                id: string;
                                /** @description The business name (the location title) */
                                name: string;
                                storeCode: string;
                                websiteUrl: string;
                            }[];
                            selectedLocationId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Switch the Google Business Profile location an account publishes to
         * @description The location must be one the connected Google user manages (403 otherwise); one already connected to the profile as another account is a 409.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The Business Profile account that holds the location (accounts/<id>), from the listing */
                        googleAccountId?: string;
                        selectedLocationId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                            selectedLocation: {
                                id: string;
                                name: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of one account
         * @description As in the list, plus the token status (expiry in words, whether it needs a refresh and whether Herald refreshes it), granted and missing permissions, and recommendations for each issue.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accountId: string;
                            canFetchAnalytics: boolean;
                            canPost: boolean;
                            displayName: string;
                            issues: string[];
                            /** @description The account's latest finished publish (GET /v1/logs has the details); null when none in 90 days */
                            lastPublish: {
                                action: string;
                                /** Format: date-time */
                                at: string;
                                errorCategory: string | null;
                                errorMessage: string | null;
                                logId: string;
                                postId: string | null;
                                /** @description success, failed or pending (the log entry's status) */
                                status: string;
                            } | null;
                            needsReconnect: boolean;
                            permissions: {
                                analytics: {
                                    granted: boolean;
                                    required: boolean;
                                    scope: string;
                                }[];
                                canFetchAnalytics: boolean;
                                canPost: boolean;
                                missingRequired: string[];
                                posting: {
                                    granted: boolean;
                                    required: boolean;
                                    scope: string;
                                }[];
                            };
                            platform: string;
                            profileId: string;
                            recommendations: string[];
                            /** @enum {string} */
                            status: "healthy" | "warning" | "error";
                            /** Format: date-time */
                            tokenExpiresAt: string | null;
                            tokenStatus: {
                                /** Format: date-time */
                                expiresAt: string | null;
                                /** @description Time until expiry in words ("3 days", "expired"); null when the token does not expire */
                                expiresIn: string | null;
                                /** @description The token expires within 24 hours */
                                needsRefresh: boolean;
                                /** @description Herald refreshes this platform's tokens before they expire */
                                refreshable: boolean;
                                valid: boolean;
                            };
                            tokenValid: boolean;
                            username: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/linkedin-organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Publish as the member or as one of their organizations
         * @description accountType personal publishes as the member; organization needs selectedOrganization with its numeric company id (urn:li:organization:<digits>; vanity names are refused). The member must be an administrator of the organization on LinkedIn.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        accountType: "personal" | "organization";
                        selectedOrganization?: {
                            /** @description Numeric company id */
                            id?: string | number;
                            /** @description True when the organization was entered by hand rather than picked from the list */
                            manual?: boolean;
                            name?: string;
                            sourceUrl?: string;
                            /** @description urn:li:organization:<numeric id> */
                            urn?: string;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/linkedin-organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the LinkedIn organizations the member administers
         * @description Read from LinkedIn (approved ADMINISTRATOR roles only), with the account's current author (accountType, selectedOrganization).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accountType: "personal" | "organization";
                            organizations: {
                                /** @description Numeric company id */
                                id: string;
                                localizedName: string;
                                name: string;
                                /** @description urn:li:organization:<id> */
                                urn: string;
                                /** @description The page slug (linkedin.com/company/<vanityName>); not accepted as an id */
                                vanityName: string | null;
                            }[];
                            selectedOrganization: {
                                [key: string]: unknown;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/pinterest-boards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the boards of a Pinterest account, and its default board */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            boards: {
                                description: string;
                                /** @description Numeric board id */
                                id: string;
                                name: string;
                                /** @description PUBLIC, PROTECTED or SECRET */
                                privacy: string;
                            }[];
                            defaultBoardId: string | null;
                            defaultBoardName: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Set the default board of a Pinterest account
         * @description Used when a post names no platformSpecificData.boardId. The board must be one of the account's boards.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A board id from GET .../pinterest-boards */
                        defaultBoardId: string;
                        defaultBoardName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/reddit-subreddits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the subreddits of a Reddit account, and its default subreddit */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            defaultSubreddit: string | null;
                            subreddits: {
                                /** @description r/<name> */
                                display_name_prefixed: string;
                                id: string;
                                /** @description Without r/ */
                                name: string;
                                over18: boolean;
                                subscribers: number | null;
                                title: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Set the default subreddit of a Reddit account
         * @description Used when a post names no platformSpecificData.subreddit. Reddit is asked whether the subreddit exists first.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A subreddit name, with or without r/ */
                        defaultSubreddit: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/reddit-subreddits/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The posting rules of a subreddit, as a post to this Reddit account is checked against them
         * @description Read from Reddit (`GET /r/{sr}/about` and `GET /api/v1/{sr}/post_requirements`) through the account and cached as for posts: a post that breaks them is refused with 400 when created. `rules` is null when the subreddit has none Herald applies or Reddit cannot be read in time.
         */
        get: {
            parameters: {
                query?: {
                    /** @description A subreddit name, with or without r/; the account's default subreddit when absent */
                    subreddit?: string;
                };
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rules: {
                                allowGalleries?: boolean;
                                allowImages?: boolean;
                                bodyMaxLength?: number;
                                bodyMinLength?: number;
                                bodyPolicy?: "required" | "notAllowed" | "none";
                                flairRequired?: boolean;
                                submissionType?: "any" | "self" | "link";
                                titleMaxLength?: number;
                                titleMinLength?: number;
                            } | null;
                            /** @description Without r/; null when none is named and the account has no default */
                            subreddit: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of every connected account
         * @description A summary (healthy, warning, error, needing reconnection) and, per account: token valid and expiry, whether it must be reconnected, whether it can post and read analytics, its issues and its latest publish result. Read from Herald's records; no platform is called.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accounts: {
                                accountId: string;
                                canFetchAnalytics: boolean;
                                canPost: boolean;
                                displayName: string;
                                issues: string[];
                                /** @description The account's latest finished publish (GET /v1/logs has the details); null when none in 90 days */
                                lastPublish: {
                                    action: string;
                                    /** Format: date-time */
                                    at: string;
                                    errorCategory: string | null;
                                    errorMessage: string | null;
                                    logId: string;
                                    postId: string | null;
                                    /** @description success, failed or pending (the log entry's status) */
                                    status: string;
                                } | null;
                                needsReconnect: boolean;
                                platform: string;
                                profileId: string;
                                /** @enum {string} */
                                status: "healthy" | "warning" | "error";
                                /** Format: date-time */
                                tokenExpiresAt: string | null;
                                tokenValid: boolean;
                                username: string;
                            }[];
                            summary: {
                                error: number;
                                healthy: number;
                                needsReconnect: number;
                                total: number;
                                warning: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Post analytics: one post (postId) or the list of published posts
         * @description Needs the Analytics add-on (402 analytics_addon_required). Limited to 30 requests per user and hour (X-RateLimit-* headers; 429 past it). Metrics a platform does not have are null.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Published on or after this day (YYYY-MM-DD, UTC); default 90 days ago */
                    fromDate?: string;
                    limit?: number;
                    order?: "asc" | "desc";
                    page?: number;
                    /** @description Only targets on this platform (default all) */
                    platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon" | "all";
                    /** @description One post: the single-post view */
                    postId?: string;
                    /** @description Only targets of this profile's accounts (default all) */
                    profileId?: string;
                    /** @description Publish time, or engagement (likes + comments + shares + saves + clicks) */
                    sortBy?: "date" | "engagement";
                    /** @description Published on or before this day (YYYY-MM-DD, inclusive, UTC); default today */
                    toDate?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            analytics: {
                                /** @description clicks; null where the platform has no such metric */
                                clicks: number | null;
                                /** @description comments; null where the platform has no such metric */
                                comments: number | null;
                                /** @description Engagement as a percentage of impressions (or views, or reach) */
                                engagementRate: number | null;
                                /** @description impressions; null where the platform has no such metric */
                                impressions: number | null;
                                /**
                                 * Format: date-time
                                 * @description When the platform was last read
                                 */
                                lastUpdated: string | null;
                                /** @description likes; null where the platform has no such metric */
                                likes: number | null;
                                /** @description reach; null where the platform has no such metric */
                                reach: number | null;
                                /** @description saves; null where the platform has no such metric */
                                saves: number | null;
                                /** @description shares; null where the platform has no such metric */
                                shares: number | null;
                                /** @description views; null where the platform has no such metric */
                                views: number | null;
                            };
                            content: string;
                            isExternal: boolean;
                            platform: string | null;
                            platformAnalytics: {
                                accountId: string;
                                accountUsername: string | null;
                                analytics: {
                                    /** @description clicks; null where the platform has no such metric */
                                    clicks: number | null;
                                    /** @description comments; null where the platform has no such metric */
                                    comments: number | null;
                                    /** @description Engagement as a percentage of impressions (or views, or reach) */
                                    engagementRate: number | null;
                                    /** @description impressions; null where the platform has no such metric */
                                    impressions: number | null;
                                    /**
                                     * Format: date-time
                                     * @description When the platform was last read
                                     */
                                    lastUpdated: string | null;
                                    /** @description likes; null where the platform has no such metric */
                                    likes: number | null;
                                    /** @description reach; null where the platform has no such metric */
                                    reach: number | null;
                                    /** @description saves; null where the platform has no such metric */
                                    saves: number | null;
                                    /** @description shares; null where the platform has no such metric */
                                    shares: number | null;
                                    /** @description views; null where the platform has no such metric */
                                    views: number | null;
                                } | null;
                                errorMessage: string | null;
                                platform: string;
                                platformPostId: string | null;
                                platformPostUrl: string | null;
                                /** @enum {unknown} */
                                status: "published" | "failed";
                                /** @enum {unknown} */
                                syncStatus: "synced" | "pending" | "unavailable";
                            }[];
                            platformPostUrl: string | null;
                            postId: string;
                            /** Format: date-time */
                            publishedAt: string | null;
                            /** Format: date-time */
                            scheduledFor: string | null;
                            status: string;
                            /** @enum {unknown} */
                            syncStatus: "synced" | "pending" | "partial" | "unavailable";
                        } | {
                            accounts: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            }[];
                            hasAnalyticsAccess: boolean;
                            overview: {
                                dataStaleness: {
                                    /** @description Accounts whose posts' metrics wait for a reconnection */
                                    staleAccountCount: number;
                                    /** @description Always false: Herald refreshes on its own schedule */
                                    syncTriggered: boolean;
                                };
                                /** Format: date-time */
                                lastSync: string | null;
                                publishedPosts: number;
                                scheduledPosts: number;
                                totalPosts: number;
                            };
                            pagination: {
                                limit: number;
                                page: number;
                                pages: number;
                                total: number;
                            };
                            posts: {
                                _id: string;
                                analytics: {
                                    /** @description clicks; null where the platform has no such metric */
                                    clicks: number | null;
                                    /** @description comments; null where the platform has no such metric */
                                    comments: number | null;
                                    /** @description Engagement as a percentage of impressions (or views, or reach) */
                                    engagementRate: number | null;
                                    /** @description impressions; null where the platform has no such metric */
                                    impressions: number | null;
                                    /**
                                     * Format: date-time
                                     * @description When the platform was last read
                                     */
                                    lastUpdated: string | null;
                                    /** @description likes; null where the platform has no such metric */
                                    likes: number | null;
                                    /** @description reach; null where the platform has no such metric */
                                    reach: number | null;
                                    /** @description saves; null where the platform has no such metric */
                                    saves: number | null;
                                    /** @description shares; null where the platform has no such metric */
                                    shares: number | null;
                                    /** @description views; null where the platform has no such metric */
                                    views: number | null;
                                };
                                content: string;
                                isExternal: boolean;
                                platform: string | null;
                                platformPostUrl: string | null;
                                platforms: {
                                    accountId: string;
                                    accountUsername: string | null;
                                    analytics: {
                                        /** @description clicks; null where the platform has no such metric */
                                        clicks: number | null;
                                        /** @description comments; null where the platform has no such metric */
                                        comments: number | null;
                                        /** @description Engagement as a percentage of impressions (or views, or reach) */
                                        engagementRate: number | null;
                                        /** @description impressions; null where the platform has no such metric */
                                        impressions: number | null;
                                        /**
                                         * Format: date-time
                                         * @description When the platform was last read
                                         */
                                        lastUpdated: string | null;
                                        /** @description likes; null where the platform has no such metric */
                                        likes: number | null;
                                        /** @description reach; null where the platform has no such metric */
                                        reach: number | null;
                                        /** @description saves; null where the platform has no such metric */
                                        saves: number | null;
                                        /** @description shares; null where the platform has no such metric */
                                        shares: number | null;
                                        /** @description views; null where the platform has no such metric */
                                        views: number | null;
                                    } | null;
                                    errorMessage: string | null;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    /** @enum {unknown} */
                                    status: "published" | "failed";
                                    /** @enum {unknown} */
                                    syncStatus: "synced" | "pending" | "unavailable";
                                }[];
                                profileId: string | null;
                                /** Format: date-time */
                                publishedAt: string | null;
                                /** Format: date-time */
                                scheduledFor: string | null;
                                status: string;
                                /** @enum {unknown} */
                                syncStatus: "synced" | "pending" | "partial" | "unavailable";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Daily gains of the selected posts' metrics (from the stored snapshots)
         * @description Herald's own view for charts: for each UTC day, what the posts published in the range gained that day. Same add-on and limit as GET /v1/analytics.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Published on or after this day (YYYY-MM-DD, UTC); default 90 days ago */
                    fromDate?: string;
                    /** @description Only targets on this platform (default all) */
                    platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon" | "all";
                    /** @description Only targets of this profile's accounts (default all) */
                    profileId?: string;
                    /** @description Published on or before this day (YYYY-MM-DD, inclusive, UTC); default today */
                    toDate?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            days: {
                                /** @description clicks; null where the platform has no such metric */
                                clicks: number | null;
                                /** @description comments; null where the platform has no such metric */
                                comments: number | null;
                                /** @description YYYY-MM-DD (UTC) */
                                date: string;
                                engagement: number;
                                /** @description impressions; null where the platform has no such metric */
                                impressions: number | null;
                                /** @description likes; null where the platform has no such metric */
                                likes: number | null;
                                /** @description reach; null where the platform has no such metric */
                                reach: number | null;
                                /** @description saves; null where the platform has no such metric */
                                saves: number | null;
                                /** @description shares; null where the platform has no such metric */
                                shares: number | null;
                                /** @description views; null where the platform has no such metric */
                                views: number | null;
                            }[];
                            /** Format: date-time */
                            fromDate: string;
                            /** Format: date-time */
                            toDate: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your API keys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apiKeys: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                expiresAt: string | null;
                                id: string;
                                /** @description The key itself; only in the create response */
                                key?: string;
                                keyPreview: string;
                                lastUsedAt: string | null;
                                name: string;
                                /** @description Late/Zernio form: "read" when the key has only read permissions */
                                permission: "read-write" | "read";
                                permissions: string[];
                                /** @description The profiles a "profiles" key reaches (those deleted since are left out); only when scope is "profiles" */
                                profileIds?: {
                                    _id: string;
                                    color: string | null;
                                    name: string;
                                }[];
                                /** @description "full": every profile the key's user reaches; "profiles": only `profileIds` */
                                scope: "full" | "profiles";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key (the key is shown only in this response)
         * @description A request made with an API key creates keys only within that key: a subset of its permissions, an expiry no later than its own and, for a profile-scoped key, a subset of its profiles (400 naming `permissions`, `expiresIn`, `scope` or `profileIds` otherwise). A key without every permission must list the permissions; an expiring key must give `expiresIn`; a profile-scoped key must give `scope: "profiles"` and `profileIds`. A profile-scoped key reaches only its profiles' accounts, posts, media and queues (other ids answer 404) and cannot manage the team, profiles or webhooks.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        disabledResourceGroups?: string[];
                        expiresIn?: number | null;
                        name: string;
                        /** @description "read" keeps only the read permissions */
                        permission?: "read-write" | "read";
                        /** @description Default: every permission */
                        permissions?: ("posts:read" | "posts:write" | "profiles:read" | "profiles:write" | "accounts:read" | "accounts:write" | "media:read" | "media:write" | "users:read" | "users:write" | "api-keys:read" | "api-keys:write" | "usage:read" | "usage:write" | "queue:read" | "queue:write" | "analytics:read" | "analytics:write" | "invites:read" | "invites:write" | "reddit:read" | "reddit:write" | "webhooks:read" | "webhooks:write" | "posts:approve")[];
                        /** @description The profiles the key reaches; required (at least one) when scope is "profiles" */
                        profileIds?: string[];
                        /** @description "full" (default): every profile; "profiles": only `profileIds` */
                        scope?: "full" | "profiles";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            apiKey: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                expiresAt: string | null;
                                id: string;
                                /** @description The key itself; only in the create response */
                                key?: string;
                                keyPreview: string;
                                lastUsedAt: string | null;
                                name: string;
                                /** @description Late/Zernio form: "read" when the key has only read permissions */
                                permission: "read-write" | "read";
                                permissions: string[];
                                /** @description The profiles a "profiles" key reaches (those deleted since are left out); only when scope is "profiles" */
                                profileIds?: {
                                    _id: string;
                                    color: string | null;
                                    name: string;
                                }[];
                                /** @description "full": every profile the key's user reaches; "profiles": only `profileIds` */
                                scope: "full" | "profiles";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the credential of the request
         * @description Answers who the API key, OAuth token or session belongs to and what it may do, reading no other data. Any valid credential may call it; an invalid, expired or revoked one answers 401.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authType: "api_key" | "oauth" | "session";
                            email: string | null;
                            /** @description When an API key expires (null: never, or not a key) */
                            expiresAt: string | null;
                            name: string | null;
                            /** @description What the credential may do (`<resource>:<read|write>`) */
                            permissions: string[];
                            /** @description all profiles, or only profileIds */
                            profileAccess: "all" | "profiles";
                            profileIds: string[];
                            /** @description OAuth grants: the granted capabilities, space-separated; null for API keys and sessions */
                            scope: string | null;
                            /** @description The credential's owner */
                            userId: string;
                            /** @description Always true in a 200: an invalid credential answers 401 */
                            valid: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your plan, add-ons and what Stripe billing offers on this server */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            addons: string[];
                            addonsForSale: string[];
                            billingPeriod: "monthly" | "yearly";
                            /** @description Stripe billing is set up on this server; when false, plans are managed with the herald CLI */
                            configured: boolean;
                            /** @description A Stripe customer exists: the customer portal can be opened */
                            hasBillingAccount: boolean;
                            hasSubscription: boolean;
                            plan: string;
                            /** @description Plans with a Stripe price */
                            plans: {
                                billingPeriod: "monthly" | "yearly";
                                plan: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start Stripe Checkout for a paid plan (and add-ons)
         * @description Answers the Checkout page URL. 404 when billing is not configured; 409 when a subscription exists (use the portal).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        addons?: ("analytics" | "clips")[];
                        billingPeriod: "monthly" | "yearly";
                        plan: "basic" | "professional" | "advanced" | "enterprise" | "unlimited";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Open this Stripe page in the browser */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open Stripe's customer portal (change plan, payment method, invoices, cancel) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Open this Stripe page in the browser */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{platform}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start connecting an account (OAuth 2.0)
         * @description Answers `{ authUrl, state }`; send the user to authUrl. After consent the platform returns to Herald, which stores the account and redirects to the dashboard, or to redirect_url with connected, profileId and username (or error and platform). redirect_url must be on this server's origin or an origin registered in its HERALD_CONNECT_REDIRECT_ORIGINS (400 otherwise). Each state redirects once: a callback replayed with a used or expired state answers an error page.
         */
        get: {
            parameters: {
                query: {
                    /** @description Mastodon: The Mastodon server (instance) to connect, as a host name: `mastodon.social`, or a self-hosted domain. Required for Mastodon. Herald registers its app on the instance on first use; a private or reserved address is refused. Ignored by the other platforms. */
                    instance?: string;
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    redirect_url?: string;
                };
                header?: never;
                path: {
                    platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "googlebusiness" | "discord" | "mastodon" | "bluesky" | "telegram";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authUrl: string;
                            state: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Complete an OAuth connection with the code (server-side flows)
         * @description Answers `{ message, account }`. Facebook answers `{ message, tempToken, pages }` when there is a choice to make: finish with POST /v1/connect/facebook/select-page. LinkedIn answers `{ message, tempToken, organizations }` when there is a choice to make: finish with POST /v1/connect/linkedin/select-organization. Google Business Profile answers `{ message, tempToken, locations }` when there is a choice to make: finish with POST /v1/connect/googlebusiness/select-location. Discord answers `{ message, tempToken, channels }` when there is a choice to make: finish with POST /v1/connect/discord/select-channel.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "googlebusiness" | "discord" | "mastodon" | "bluesky" | "telegram";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        state: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            /** @description Discord: the text, announcement and forum channels of the server Herald's bot was added to */
                            channels?: {
                                guildId: string;
                                guildName: string;
                                /** @description The channel id (snowflake) */
                                id: string;
                                /** @description Permissions Herald's bot lacks there (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY); empty when it can publish */
                                missingPermissions: string[];
                                name: string;
                                /** @description Discord channel type: 0 text, 5 announcement, 15 forum */
                                type: number;
                                /** @description text, announcement or forum */
                                typeName: string;
                            }[];
                            /** @description Google Business Profile: the locations of every Business Profile account the user manages */
                            locations?: {
                                /** @description The Business Profile account that holds it: accounts/<id> */
                                accountId: string;
                                accountName: string;
                                address: string;
                                category: string;
                                /** @description The location id (digits); `locations/<id>` in Google's resource names */
                                id: string;
                                /** @description The business name (the location title) */
                                name: string;
                                storeCode: string;
                                websiteUrl: string;
                            }[];
                            message: string;
                            /** @description LinkedIn: the organizations the member administers */
                            organizations?: {
                                id: string;
                                name: string;
                                urn: string;
                                vanityName: string | null;
                            }[];
                            /** @description Facebook: the pages the user administers */
                            pages?: {
                                /** @description The Page access token */
                                access_token?: string;
                                category: string;
                                id: string;
                                name: string;
                                tasks: string[];
                            }[];
                            /** @description The selection token of a choice to make (1 hour, single use) */
                            tempToken?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{platform}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth redirect target (the platform sends the browser here) */
        get: {
            parameters: {
                query?: {
                    code?: string;
                    error?: string;
                    error_description?: string;
                    state?: string;
                };
                header?: never;
                path: {
                    platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "googlebusiness" | "discord" | "mastodon" | "bluesky" | "telegram";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/bluesky/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect a Bluesky account with an app password
         * @description Logs in to the account's PDS with the app password (never the main password) and stores the session encrypted. `state` is `{userId}-{profileId}` as returned by the connect flow, or just the profile id.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description App password, xxxx-xxxx-xxxx-xxxx */
                        appPassword: string;
                        /** @description Handle (alice.bsky.social), email or DID */
                        identifier: string;
                        redirect_url?: string;
                        redirectUri?: string;
                        state: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/discord/choices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The choices of a Discord connection, in the shape every platform shares
         * @description What GET /connect/discord/select-channel lists, as `{ value, label, hint }` with the step's title; choose with POST /v1/connect/discord/choose. Herald extension.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            choices: {
                                hint: string;
                                label: string;
                                value: string;
                            }[];
                            /** @description What to say when there is nothing to choose */
                            empty: string;
                            note?: string;
                            noun: string;
                            title: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/discord/choose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a Discord connection with a value from its choices
         * @description The same as POST /connect/discord/select-channel with the value GET /v1/connect/discord/choices listed. Herald extension.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/discord/select-channel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the channels of the Discord server Herald's bot was added to (after OAuth)
         * @description Text (0), announcement (5) and forum (15) channels, each with the permissions the bot lacks there. tempToken comes from the OAuth callback (1 hour, single use).
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            channels: {
                                guildId: string;
                                guildName: string;
                                /** @description The channel id (snowflake) */
                                id: string;
                                /** @description Permissions Herald's bot lacks there (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY); empty when it can publish */
                                missingPermissions: string[];
                                name: string;
                                /** @description Discord channel type: 0 text, 5 announcement, 15 forum */
                                type: number;
                                /** @description text, announcement or forum */
                                typeName: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Connect the chosen Discord channel
         * @description Stores the channel as the account (one account per channel). The bot must have VIEW_CHANNEL, SEND_MESSAGES and READ_MESSAGE_HISTORY there (403 naming the missing ones otherwise). Uses up the tempToken.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The channel id (snowflake) */
                        channelId: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/facebook/choices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The choices of a Facebook connection, in the shape every platform shares
         * @description What GET /connect/facebook/select-page lists, as `{ value, label, hint }` with the step's title; choose with POST /v1/connect/facebook/choose. Herald extension.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            choices: {
                                hint: string;
                                label: string;
                                value: string;
                            }[];
                            /** @description What to say when there is nothing to choose */
                            empty: string;
                            note?: string;
                            noun: string;
                            title: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/facebook/choose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a Facebook connection with a value from its choices
         * @description The same as POST /connect/facebook/select-page with the value GET /v1/connect/facebook/choices listed. Herald extension.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/facebook/select-page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the Facebook pages the user administers (after OAuth)
         * @description Only pages the user administers (tasks include MANAGE); a page where the user only has CREATE_CONTENT is not offered. tempToken comes from the OAuth callback (1 hour, single use).
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pages: {
                                /** @description The Page access token */
                                access_token?: string;
                                category: string;
                                id: string;
                                name: string;
                                tasks: string[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Connect the chosen Facebook page
         * @description Stores the page (its page token, sealed) as the account; the user must administer it, its tasks including MANAGE (403 saying so otherwise). Uses up the tempToken.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        pageId: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        userProfile?: {
                            id?: string;
                            name?: string;
                            profilePicture?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/googlebusiness/choices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The choices of a Google Business Profile connection, in the shape every platform shares
         * @description What GET /connect/googlebusiness/select-location lists, as `{ value, label, hint }` with the step's title; choose with POST /v1/connect/googlebusiness/choose. Herald extension.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            choices: {
                                hint: string;
                                label: string;
                                value: string;
                            }[];
                            /** @description What to say when there is nothing to choose */
                            empty: string;
                            note?: string;
                            noun: string;
                            title: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/googlebusiness/choose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a Google Business Profile connection with a value from its choices
         * @description The same as POST /connect/googlebusiness/select-location with the value GET /v1/connect/googlebusiness/choices listed. Herald extension.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/googlebusiness/select-location": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the Google Business Profile locations the user manages (after OAuth)
         * @description Read from Google (Account Management accounts.list, Business Information accounts.locations.list). tempToken comes from the OAuth callback (1 hour, single use).
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            locations: {
                                /** @description The Business Profile account that holds it: accounts/<id> */
                                accountId: string;
                                accountName: string;
                                address: string;
                                category: string;
                                /** @description The location id (digits); `locations/<id>` in Google's resource names */
                                id: string;
                                /** @description The business name (the location title) */
                                name: string;
                                storeCode: string;
                                websiteUrl: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Connect the chosen Google Business Profile location
         * @description Stores the location as the account (one account per location), with the Google tokens sealed. The user must manage it (403 otherwise). Uses up the tempToken.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Optional: the Business Profile account that holds the location (accounts/<id>), as the listing gives it */
                        accountId?: string;
                        /** @description The location id: digits, or locations/<digits> */
                        locationId: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/linkedin/choices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The choices of a LinkedIn connection, in the shape every platform shares
         * @description What GET /connect/linkedin/select-organization lists, as `{ value, label, hint }` with the step's title; choose with POST /v1/connect/linkedin/choose. Herald extension.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            choices: {
                                hint: string;
                                label: string;
                                value: string;
                            }[];
                            /** @description What to say when there is nothing to choose */
                            empty: string;
                            note?: string;
                            noun: string;
                            title: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/linkedin/choose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a LinkedIn connection with a value from its choices
         * @description The same as POST /connect/linkedin/select-organization with the value GET /v1/connect/linkedin/choices listed. Herald extension.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/linkedin/select-organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organizations a LinkedIn member can publish as (during connect)
         * @description The organizations (approved administrator) found for the tempToken of a LinkedIn connection; the tempToken stays valid.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            organizations: {
                                id: string;
                                name: string;
                                urn: string;
                                vanityName: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Finish connecting LinkedIn as the member or one of their organizations
         * @description tempToken comes from the OAuth callback when the member administers organizations (1 hour, single use). accountType organization needs selectedOrganization with its numeric company id (urn:li:organization:<digits>), which must be one the member administers (403 otherwise).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        accountType: "personal" | "organization";
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        selectedOrganization?: ({
                            id?: string | number;
                            logoUrl?: string;
                            name?: string;
                            urn?: string;
                            vanityName?: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        tempToken: string;
                        userProfile?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/telegram/bot-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect a Telegram channel or group with a bot token
         * @description Checks the bot token with getMe, then finds the channels and groups where the bot is an administrator. With chatId the chat is connected at once (the bot must already be an administrator allowed to post there); otherwise the answer lists the chats found so far with a tempToken, a code to post in the chat if it is not found, and the steps; finish with POST /v1/connect/telegram/select-chat.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The bot token from @BotFather (`<bot id>:<secret>`) */
                        botToken: string;
                        /** @description The chat to connect at once: a numeric chat id or @channelusername (Late's chatId) */
                        chatId?: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            /** @description The bot's @username, without @ */
                            botUsername?: string;
                            /** @description The channels and groups where the bot is an administrator allowed to post, found so far */
                            chats?: {
                                /** @description The chat id (a string: Telegram chat ids can exceed 32 bits) */
                                id: string;
                                title: string;
                                type: "channel" | "group" | "supergroup";
                                /** @description The public @username, without @ */
                                username?: string;
                            }[];
                            /** @description A code to post in the chat when the bot cannot find it otherwise */
                            code?: string;
                            /** @description When the tempToken (and the code) expires (ISO 8601) */
                            expiresAt?: string;
                            /** @description Seconds until then */
                            expiresIn?: number;
                            /** @description Step-by-step connection instructions */
                            instructions?: string[];
                            message: string;
                            redirect_url?: string;
                            /** @description The selection token (1 hour, single use): finish with POST /v1/connect/telegram/select-chat */
                            tempToken?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/telegram/choices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The choices of a Telegram connection, in the shape every platform shares
         * @description What GET /connect/telegram/select-chat lists, as `{ value, label, hint }` with the step's title; choose with POST /v1/connect/telegram/choose. Herald extension.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            choices: {
                                hint: string;
                                label: string;
                                value: string;
                            }[];
                            /** @description What to say when there is nothing to choose */
                            empty: string;
                            note?: string;
                            noun: string;
                            title: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/telegram/choose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a Telegram connection with a value from its choices
         * @description The same as POST /connect/telegram/select-chat with the value GET /v1/connect/telegram/choices listed. Herald extension.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/telegram/select-chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the Telegram chats the bot may post to
         * @description Reads the bot's updates again (without consuming them): chats it was made administrator of, and chats where the code was posted; each checked with getChatMember.
         */
        get: {
            parameters: {
                query: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    tempToken: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            chats: {
                                /** @description The chat id (a string: Telegram chat ids can exceed 32 bits) */
                                id: string;
                                title: string;
                                type: "channel" | "group" | "supergroup";
                                /** @description The public @username, without @ */
                                username?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Connect the chosen Telegram chat
         * @description Checks with getChatMember that the bot is an administrator allowed to post there, then stores the account (the bot token sealed, the chat id).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A chat id from the list, or @channelusername */
                        chatId: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        redirect_url?: string;
                        tempToken: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account: {
                                _id: string;
                                accountType?: string;
                                /** Format: date-time */
                                createdAt: string;
                                defaultBoardId?: string;
                                defaultBoardName?: string;
                                defaultSubreddit?: string;
                                displayName: string;
                                inactiveReason: string | null;
                                isActive: boolean;
                                needsReconnection: boolean;
                                permissions: string[];
                                platform: string;
                                profileId: string;
                                profilePicture: string | null;
                                profileUrl?: string;
                                /** @description What the platform stated about the account that its posting rules read (Mastodon: the instance's limits, read at connect), for checking a post as the server does */
                                ruleSettings?: {
                                    [key: string]: unknown;
                                };
                                /** @description True for simulator-backed sandbox accounts */
                                sandbox?: boolean;
                                selectedOrganization?: unknown;
                                selectedPageName?: string;
                                /** @description TikTok: the privacy levels this creator may post with (creator info, read at connect) */
                                tiktokPrivacyLevelOptions?: string[];
                                tokenExpiresAt: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                username: string;
                            } & {
                                accountId: string;
                            };
                            message: string;
                            redirect_url?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feeds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List followed feeds */
        get: {
            parameters: {
                query?: {
                    /** @description Only the feeds of this profile */
                    profileId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            feeds: {
                                _id: string;
                                /** @description Accounts of the profile the posts go to */
                                accountIds: string[];
                                consecutiveFailures: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Whether the items already in the feed at its first check became posts too */
                                importExisting: boolean;
                                /** @description Attach the item's image (enclosure, media:content, JSON Feed image) when it has one */
                                includeImage: boolean;
                                /** Format: date-time */
                                lastCheckedAt: string | null;
                                /** @description Why the last check failed (cleared by a successful one) */
                                lastError: string | null;
                                /** Format: date-time */
                                lastErrorAt: string | null;
                                /** Format: date-time */
                                lastSuccessAt: string | null;
                                /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                                mode: "draft" | "queue";
                                /** @description Your name for the feed */
                                name: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it is checked next (null while paused)
                                 */
                                nextCheckAt: string | null;
                                paused: boolean;
                                /** @description Minutes between checks (failures back off: twice as long after each, at most 24 hours) */
                                pollIntervalMinutes: number;
                                profileId: string;
                                /** @description `failing`: the last check failed (see lastError) */
                                status: "active" | "paused" | "failing";
                                /** @description Post text: {title}, {link} and {description} are replaced by the item's */
                                template: string;
                                /** @description The feed's own title, from its last successful check */
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description The feed's URL (RSS 2.0, Atom or JSON Feed) */
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Follow a feed: its new items become queued posts or drafts
         * @description The feed is checked at once and then every `pollIntervalMinutes` (a conditional GET). Items in the feed at its first check are recorded without posts unless `importExisting` is true (then at most 20 per check). Each item (by guid / id, else link) becomes one post, once.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Connected accounts of the profile (at least one for mode queue) */
                        accountIds?: string[];
                        /** @description Default false: only items that appear after the first check become posts */
                        importExisting?: boolean;
                        /** @description Default true */
                        includeImage?: boolean;
                        /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                        mode?: "draft" | "queue";
                        /** @description Up to 100 characters */
                        name?: string | null;
                        /** @description Default false */
                        paused?: boolean;
                        /** @description Minutes between checks, 5 to 1440 (default 30) */
                        pollIntervalMinutes?: number;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        /** @description Up to 5000 characters; placeholders {title}, {link}, {description}. Default: "{title}\n\n{link}" */
                        template?: string;
                        /** @description http(s) URL of an RSS 2.0, Atom or JSON Feed; private and reserved addresses are refused */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            feed: {
                                _id: string;
                                /** @description Accounts of the profile the posts go to */
                                accountIds: string[];
                                consecutiveFailures: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Whether the items already in the feed at its first check became posts too */
                                importExisting: boolean;
                                /** @description Attach the item's image (enclosure, media:content, JSON Feed image) when it has one */
                                includeImage: boolean;
                                /** Format: date-time */
                                lastCheckedAt: string | null;
                                /** @description Why the last check failed (cleared by a successful one) */
                                lastError: string | null;
                                /** Format: date-time */
                                lastErrorAt: string | null;
                                /** Format: date-time */
                                lastSuccessAt: string | null;
                                /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                                mode: "draft" | "queue";
                                /** @description Your name for the feed */
                                name: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it is checked next (null while paused)
                                 */
                                nextCheckAt: string | null;
                                paused: boolean;
                                /** @description Minutes between checks (failures back off: twice as long after each, at most 24 hours) */
                                pollIntervalMinutes: number;
                                profileId: string;
                                /** @description `failing`: the last check failed (see lastError) */
                                status: "active" | "paused" | "failing";
                                /** @description Post text: {title}, {link} and {description} are replaced by the item's */
                                template: string;
                                /** @description The feed's own title, from its last successful check */
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description The feed's URL (RSS 2.0, Atom or JSON Feed) */
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feeds/{feedId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a feed and its 20 latest items */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    feedId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            feed: {
                                _id: string;
                                /** @description Accounts of the profile the posts go to */
                                accountIds: string[];
                                consecutiveFailures: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Whether the items already in the feed at its first check became posts too */
                                importExisting: boolean;
                                /** @description Attach the item's image (enclosure, media:content, JSON Feed image) when it has one */
                                includeImage: boolean;
                                /** Format: date-time */
                                lastCheckedAt: string | null;
                                /** @description Why the last check failed (cleared by a successful one) */
                                lastError: string | null;
                                /** Format: date-time */
                                lastErrorAt: string | null;
                                /** Format: date-time */
                                lastSuccessAt: string | null;
                                /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                                mode: "draft" | "queue";
                                /** @description Your name for the feed */
                                name: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it is checked next (null while paused)
                                 */
                                nextCheckAt: string | null;
                                paused: boolean;
                                /** @description Minutes between checks (failures back off: twice as long after each, at most 24 hours) */
                                pollIntervalMinutes: number;
                                profileId: string;
                                /** @description `failing`: the last check failed (see lastError) */
                                status: "active" | "paused" | "failing";
                                /** @description Post text: {title}, {link} and {description} are replaced by the item's */
                                template: string;
                                /** @description The feed's own title, from its last successful check */
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description The feed's URL (RSS 2.0, Atom or JSON Feed) */
                                url: string;
                            };
                            items: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Why it failed, or why a queued post was saved as a draft instead */
                                error: string | null;
                                /** @description The item's guid / id (else its link): each key becomes a post once */
                                key: string;
                                link: string | null;
                                postId: string | null;
                                /** Format: date-time */
                                publishedAt: string | null;
                                /** @description `created`: postId is its post; `skipped`: in the feed when it was added; `failed`: no post could be made (error) */
                                status: "created" | "skipped" | "failed";
                                title: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Change a feed (pause or resume, template, accounts, URL, interval)
         * @description Fields left out keep their values. A new URL is checked at once, without the old validators; resuming makes the feed due at once.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    feedId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Connected accounts of the profile (at least one for mode queue) */
                        accountIds?: string[];
                        /** @description Default true */
                        includeImage?: boolean;
                        /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                        mode?: "draft" | "queue";
                        /** @description Up to 100 characters */
                        name?: string | null;
                        /** @description Default false */
                        paused?: boolean;
                        /** @description Minutes between checks, 5 to 1440 (default 30) */
                        pollIntervalMinutes?: number;
                        /** @description Up to 5000 characters; placeholders {title}, {link}, {description}. Default: "{title}\n\n{link}" */
                        template?: string;
                        /** @description http(s) URL of an RSS 2.0, Atom or JSON Feed; private and reserved addresses are refused */
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            feed: {
                                _id: string;
                                /** @description Accounts of the profile the posts go to */
                                accountIds: string[];
                                consecutiveFailures: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Whether the items already in the feed at its first check became posts too */
                                importExisting: boolean;
                                /** @description Attach the item's image (enclosure, media:content, JSON Feed image) when it has one */
                                includeImage: boolean;
                                /** Format: date-time */
                                lastCheckedAt: string | null;
                                /** @description Why the last check failed (cleared by a successful one) */
                                lastError: string | null;
                                /** Format: date-time */
                                lastErrorAt: string | null;
                                /** Format: date-time */
                                lastSuccessAt: string | null;
                                /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                                mode: "draft" | "queue";
                                /** @description Your name for the feed */
                                name: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it is checked next (null while paused)
                                 */
                                nextCheckAt: string | null;
                                paused: boolean;
                                /** @description Minutes between checks (failures back off: twice as long after each, at most 24 hours) */
                                pollIntervalMinutes: number;
                                profileId: string;
                                /** @description `failing`: the last check failed (see lastError) */
                                status: "active" | "paused" | "failing";
                                /** @description Post text: {title}, {link} and {description} are replaced by the item's */
                                template: string;
                                /** @description The feed's own title, from its last successful check */
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description The feed's URL (RSS 2.0, Atom or JSON Feed) */
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Stop following a feed (the posts made from it stay) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    feedId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feeds/{feedId}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a feed now
         * @description Makes the feed due now; a worker checks it within seconds. 409 for a paused feed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    feedId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            feed: {
                                _id: string;
                                /** @description Accounts of the profile the posts go to */
                                accountIds: string[];
                                consecutiveFailures: number;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description Whether the items already in the feed at its first check became posts too */
                                importExisting: boolean;
                                /** @description Attach the item's image (enclosure, media:content, JSON Feed image) when it has one */
                                includeImage: boolean;
                                /** Format: date-time */
                                lastCheckedAt: string | null;
                                /** @description Why the last check failed (cleared by a successful one) */
                                lastError: string | null;
                                /** Format: date-time */
                                lastErrorAt: string | null;
                                /** Format: date-time */
                                lastSuccessAt: string | null;
                                /** @description `queue`: each new item is added to the profile's queue (next free slot); `draft`: saved as a draft to review */
                                mode: "draft" | "queue";
                                /** @description Your name for the feed */
                                name: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it is checked next (null while paused)
                                 */
                                nextCheckAt: string | null;
                                paused: boolean;
                                /** @description Minutes between checks (failures back off: twice as long after each, at most 24 hours) */
                                pollIntervalMinutes: number;
                                profileId: string;
                                /** @description `failing`: the last check failed (see lastError) */
                                status: "active" | "paused" | "failing";
                                /** @description Post text: {title}, {link} and {description} are replaced by the item's */
                                template: string;
                                /** @description The feed's own title, from its last successful check */
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                /** @description The feed's URL (RSS 2.0, Atom or JSON Feed) */
                                url: string;
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invite/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List pending team invites (unused and unexpired; tokens are not shown again) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invites: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string;
                                invitedProfileIds: string[];
                                /** @description "all" profiles, or only "profiles" listed in profileIds */
                                scope: "all" | "profiles";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a team invite (single use, valid 7 days)
         * @description The invitee opens `inviteUrl`, sets a name, email and password, and joins your team with access to all profiles or only `profileIds`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Required when scope is "profiles"; every profile must be yours */
                        profileIds?: string[];
                        /** @description Only false is supported */
                        readOnly?: boolean;
                        /** @description Only "member" (the default) is supported */
                        role?: string;
                        /** @description "all" profiles, or only "profiles" listed in profileIds */
                        scope: "all" | "profiles";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description 7 days after creation
                             */
                            expiresAt: string;
                            invitedProfileIds: string[];
                            /** @description Sign-up page for the invitee: /signup?inviteToken=<token> */
                            inviteUrl: string;
                            /** @description "all" profiles, or only "profiles" listed in profileIds */
                            scope: "all" | "profiles";
                            /** @description Single-use invite token (shown only here) */
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invite/tokens/{inviteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending team invite */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    inviteId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List publishing logs
         * @description Each entry is one step of publishing: action `publish`, `retry`, `verify` (asking the platform whether an interrupted publish went through), `media_upload`, `rate_limit_pause`, `token_refresh`, `unpublish`, `edit` or `update_metadata` (an edit of a published post, with `actorId`, who asked, and `changes`, each field before and after), with the platform, status (`success`, `failed`, `pending`, `skipped`), the platform's HTTP status and endpoint when it answered with an error, the duration, the attempt number, the error category and an excerpt of the platform's answer (at most 2,000 characters, tokens and secrets removed). Entries are kept 90 days. Newest first; `days` (default 7) bounds the look-back.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only entries of this account */
                    accountId?: string;
                    action?: "publish" | "retry" | "verify" | "media_upload" | "token_refresh" | "rate_limit_pause" | "unpublish" | "edit" | "update_metadata";
                    /** @description Days to look back (default 7, at most 90) */
                    days?: number;
                    /** @description ISO 8601 instant: entries from then on (within `days`) */
                    from?: string;
                    /** @description Entries per page (default 50, at most 100) */
                    limit?: number;
                    /** @description Page number (1-based); used when `skip` is absent */
                    page?: number;
                    platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon" | "all";
                    /** @description Only entries of this post */
                    postId?: string;
                    /** @description Correlation id: the entries one API request spawned, by the `x-request-id` Herald answered it with (a caller's own `x-request-id` when it sent one). For POST /v1/posts: every publish, retry and verify of the post it created; for an unpublish: the entries it wrote. Each entry carries it as `requestId` */
                    requestId?: string;
                    /** @description Free-text search: entries whose error message, endpoint, platform answer excerpt, error category, action, platform, post, target or account id contains this text (case-insensitive) */
                    search?: string;
                    /** @description Entries to skip */
                    skip?: number;
                    status?: "success" | "failed" | "pending" | "skipped" | "all";
                    /** @description ISO 8601 instant: entries up to then */
                    to?: string;
                    /** @description Log category. Herald keeps publishing logs here (every entry is `publishing`): `all` and `publishing` list them, the other categories of the Late API have no entries (webhook deliveries are listed by GET /v1/webhooks/logs) */
                    type?: "all" | "publishing" | "connections" | "webhooks" | "messaging" | "workflow_event" | "api_request";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            logs: {
                                _id: string;
                                account_id: string | null;
                                accountId: string | null;
                                /** @description One of publish, retry, verify, media_upload, token_refresh, rate_limit_pause, unpublish, edit, update_metadata */
                                action: string;
                                /** @description edit and update_metadata: the user who asked for the change */
                                actorId?: string;
                                /** @description The target's attempt this entry belongs to (0 for token refresh, unpublish and edits) */
                                attemptNumber: number;
                                /** @description edit and update_metadata: each field changed (content, title, description, tags, ...) with its value before and after */
                                changes?: {
                                    [key: string]: {
                                        from: unknown;
                                        to: unknown;
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                createdAt: string;
                                duration_ms: number | null;
                                durationMs: number | null;
                                /** @description The platform endpoint called (method and path) */
                                endpoint: string | null;
                                error_message: string | null;
                                errorCategory: string | null;
                                errorMessage: string | null;
                                /** Format: date-time */
                                finishedAt: string | null;
                                /** @description The platform's HTTP status, when it answered with an error */
                                httpStatus: number | null;
                                /** @description prepare, commit, verify, token_refresh, unpublish, edit or update_metadata */
                                phase: string;
                                platform: string | null;
                                postId: string | null;
                                request_id: string | null;
                                /** @description The API request that spawned the entry: the one that wrote it (unpublish), else the one that created its post */
                                requestId: string | null;
                                response_body: string | null;
                                /** @description The start of the platform's answer (at most 2,000 characters, secrets removed) */
                                responseExcerpt: string | null;
                                /** @enum {string} */
                                status: "success" | "failed" | "pending" | "skipped";
                                status_code: number | null;
                                targetId: string | null;
                                /** @enum {string} */
                                type: "publishing";
                            }[];
                            pagination: {
                                hasMore: boolean;
                                limit: number;
                                page: number;
                                pages: number;
                                skip: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logs/{logId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a publishing log entry */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Log entry id (the `_id` of a log entry) */
                    logId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            log: {
                                _id: string;
                                account_id: string | null;
                                accountId: string | null;
                                /** @description One of publish, retry, verify, media_upload, token_refresh, rate_limit_pause, unpublish, edit, update_metadata */
                                action: string;
                                /** @description edit and update_metadata: the user who asked for the change */
                                actorId?: string;
                                /** @description The target's attempt this entry belongs to (0 for token refresh, unpublish and edits) */
                                attemptNumber: number;
                                /** @description edit and update_metadata: each field changed (content, title, description, tags, ...) with its value before and after */
                                changes?: {
                                    [key: string]: {
                                        from: unknown;
                                        to: unknown;
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                createdAt: string;
                                duration_ms: number | null;
                                durationMs: number | null;
                                /** @description The platform endpoint called (method and path) */
                                endpoint: string | null;
                                error_message: string | null;
                                errorCategory: string | null;
                                errorMessage: string | null;
                                /** Format: date-time */
                                finishedAt: string | null;
                                /** @description The platform's HTTP status, when it answered with an error */
                                httpStatus: number | null;
                                /** @description prepare, commit, verify, token_refresh, unpublish, edit or update_metadata */
                                phase: string;
                                platform: string | null;
                                postId: string | null;
                                request_id: string | null;
                                /** @description The API request that spawned the entry: the one that wrote it (unpublish), else the one that created its post */
                                requestId: string | null;
                                response_body: string | null;
                                /** @description The start of the platform's answer (at most 2,000 characters, secrets removed) */
                                responseExcerpt: string | null;
                                /** @enum {string} */
                                status: "success" | "failed" | "pending" | "skipped";
                                status_code: number | null;
                                targetId: string | null;
                                /** @enum {string} */
                                type: "publishing";
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/connected-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the AI assistants and other OAuth clients connected to your account (MCP) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            connectedApps: {
                                authorizedAt: string | null;
                                clientId: string;
                                /** @description Name the client declared at registration (self-declared, not verified) */
                                clientName: string;
                                /** @description Last time one of its tokens authenticated a request (to the minute) */
                                lastUsedAt: string | null;
                                /** @description Profiles the client was granted */
                                profileIds: string[];
                                /** @description Host of the client's registered redirect URI (non-http schemes as scheme//host) */
                                redirectHost: string | null;
                                /** @description Capabilities granted on the most recent token: read, drafts, publish, delete */
                                scopes: string[];
                                /** @description Live access and refresh tokens */
                                tokenCount: number;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/connected-apps/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect an OAuth client: every token it holds stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description OAuth client id, as GET /v1/me/connected-apps returns it */
                    clientId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            clientId: string;
                            /** @description Pending authorization codes invalidated by this call */
                            invalidatedCodes: number;
                            revoked: boolean;
                            /** @description Access and refresh tokens revoked by this call */
                            revokedTokens: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List uploaded media (the media library)
         * @description The files uploaded to this account (both upload flows), newest first, paged. `q` searches the file names and tags (case-insensitive); `type` keeps one kind; `tag` one tag. Each file can be reused in `mediaItems` as it is; `usedInPosts` counts the posts naming it. Uploads are deduplicated by content: uploading bytes already stored answers the stored file (its URL) instead of a second copy.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 100 */
                    limit?: number;
                    page?: number;
                    /** @description Part of the file name */
                    q?: string;
                    /** @description Only files with this tag */
                    tag?: string;
                    type?: "image" | "video" | "gif" | "document";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                /** @description Seconds (videos, animated GIFs) */
                                durationSeconds?: number;
                                filename: string;
                                /** @description Pixels (images and videos) */
                                height?: number;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                /** @description The library's tags (PATCH /v1/media/{mediaId}) */
                                tags: string[];
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                                /** @description How many posts name this file in their media items */
                                usedInPosts?: number;
                                /** @description Pixels (images and videos) */
                                width?: number;
                            }[];
                            pagination: {
                                limit: number;
                                page: number;
                                pages: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Upload media: multipart for small files, or start a client upload (JSON) for files up to 5GB
         * @description Two ways to upload; both end with the same `files` entries (type, url, filename, size in bytes, mimeType).
         *
         *     **Small files (up to about 4 MB each): multipart.** Send `multipart/form-data` with one or more parts in the field `files`. The answer is 200 `{ files: [...] }`. A larger part answers 413 pointing to the client-upload flow.
         *
         *     **Any file up to 5GB: the client-upload flow (resumable, tus 1.0.0).**
         *     1. `POST /v1/media` with JSON `{ "filename": "clip.mp4", "contentType": "video/mp4", "size": 734003200 }` (API key with media:write). The answer is 201 `{ uploadId, token, uploadUrl, expiresAt, status: "pending", protocol: "tus", ... }`. Over 5GB: 413 `{ error: "File \"clip.mp4\" is too large (6.2GB). Maximum supported size is 5GB.", maxSize: "5GB", code: "file-too-large" }`. A type outside the allow-list: 415 asking to set a valid contentType.
         *     2. Send the bytes to `uploadUrl` with the tus protocol, authorised by the token (not the API key): `PATCH uploadUrl` with `Authorization: Bearer <token>`, `Tus-Resumable: 1.0.0`, `Upload-Offset: <bytes already sent>` and `Content-Type: application/offset+octet-stream`, in one request or in chunks. After an interruption, `HEAD uploadUrl` (same headers) answers `Upload-Offset`; continue from there. Any tus client works (tus-js-client: `new Upload(file, { uploadUrl, headers: { Authorization: 'Bearer ' + token } })`). The upload was created with the declared size: bytes beyond it are refused.
         *     3. The PATCH that delivers the last byte answers 200 `{ files: [ { type, url, filename, size, mimeType } ] }` once the bytes were checked against the declared contentType (magic bytes), probed (duration, width, height, codecs) and stored. If the bytes are not the declared type, it answers 415 and the upload is deleted. `GET uploadUrl` (same token) answers `{ uploadId, status, offset, size, expiresAt, files?, error? }` at any time, e.g. when the final response was lost; `DELETE uploadUrl` cancels.
         *
         *     The token is valid for one upload of the declared size and type, for one hour by default (HERALD_UPLOAD_TOKEN_TTL); a request started before the expiry may finish.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description One of: image/jpeg, image/jpg, image/png, image/webp, image/gif, video/mp4, video/mpeg, video/quicktime, video/avi, video/x-msvideo, video/webm, video/x-m4v, application/pdf. Checked against the file's bytes after the upload. */
                        contentType: string;
                        /** @description Original file name (kept as the media file's filename) */
                        filename: string;
                        /** @description Exact size in bytes; at most 5GB (5368709120). The upload must be exactly this long. */
                        size: number;
                    };
                    "multipart/form-data": {
                        /** @description One or more files, about 4 MB each at most */
                        files?: string[];
                    };
                };
            };
            responses: {
                /** @description Multipart upload stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Client upload started: send the bytes to uploadUrl */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            contentType: string;
                            /**
                             * Format: date-time
                             * @description New requests with the token are refused after this instant
                             */
                            expiresAt: string;
                            filename: string;
                            /** @enum {string} */
                            protocol: "tus";
                            /** @description Bytes */
                            size: number;
                            status: "pending" | "uploading" | "processing" | "completed" | "failed" | "cancelled" | "expired";
                            /** @description Upload token for the upload URL only (not an API key). Send it as "Authorization: Bearer <token>". Shown once. */
                            token: string;
                            /** @enum {string} */
                            tusVersion: "1.0.0";
                            uploadId: string;
                            /** @description tus 1.0.0 upload resource: HEAD (offset), PATCH (bytes), GET (status and files), DELETE (cancel) */
                            uploadUrl: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/{mediaId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One media library file and the posts using it (Herald extension) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Media file id (`_id` of GET /v1/media) */
                    mediaId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            file: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                /** @description Seconds (videos, animated GIFs) */
                                durationSeconds?: number;
                                filename: string;
                                /** @description Pixels (images and videos) */
                                height?: number;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                /** @description The library's tags (PATCH /v1/media/{mediaId}) */
                                tags: string[];
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                                /** @description How many posts name this file in their media items */
                                usedInPosts?: number;
                                /** @description Pixels (images and videos) */
                                width?: number;
                            };
                            /** @description Posts naming the file in their media items, newest first (at most 50) */
                            usedBy: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                scheduledFor?: string;
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a media library file (Herald extension)
         * @description Deletes the file and its stored bytes. A file that posts use is refused (409, `usedInPosts`) unless `force=true`: those posts keep its URL, which then no longer answers.
         */
        delete: {
            parameters: {
                query?: {
                    force?: boolean;
                };
                header?: never;
                path: {
                    /** @description Media file id (`_id` of GET /v1/media) */
                    mediaId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Set a media library file's tags (Herald extension) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Media file id (`_id` of GET /v1/media) */
                    mediaId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        tags: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            file: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                /** @description Seconds (videos, animated GIFs) */
                                durationSeconds?: number;
                                filename: string;
                                /** @description Pixels (images and videos) */
                                height?: number;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                /** @description The library's tags (PATCH /v1/media/{mediaId}) */
                                tags: string[];
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                                /** @description How many posts name this file in their media items */
                                usedInPosts?: number;
                                /** @description Pixels (images and videos) */
                                width?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/media/{mediaId}/convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Convert an image to JPEG (Herald extension)
         * @description Instagram publishes JPEG images only. This stores a JPEG copy of a PNG or WebP image (transparency flattened onto white, EXIF orientation applied) as a new library file named `<name>.jpg` and answers it like an upload, 200 `{ files: [ { type, url, filename, size, mimeType } ], converted: true, from }`; use its `url` in `mediaItems` instead of the original. A JPEG answers itself with `converted: false`. Other types answer 415; images over 50 MB 413. The original stays in the library.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Media file id (`_id` of GET /v1/media) */
                    mediaId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Target format; only "jpeg"
                         * @enum {string}
                         */
                        format: "jpeg";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description false when the file already was a JPEG */
                            converted: boolean;
                            files: {
                                _id: string;
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                            /** @description The original's MIME type */
                            from: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/from-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload media from a URL (Herald extension)
         * @description Herald downloads the file at `url` and stores it like an upload: the same limits (5GB; one of the allowed types, checked on the file's bytes) and the same answer as a multipart upload, 200 `{ files: [ { type, url, filename, size, mimeType } ] }`. Only http(s) URLs of public addresses are fetched (every redirect is checked the same way); a refused or unreachable URL answers 400 naming `url`, a larger file 413, bytes of a type outside the allow-list 415.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description File name to keep (default: the URL's last path segment) */
                        filename?: string;
                        /** @description http(s) URL of the file; Herald downloads it (public addresses only, redirects followed and checked) */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Downloaded and stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            files: {
                                /** @description true when these bytes were already in the library: the answer is that file (its url), no second copy was stored */
                                deduplicated?: boolean;
                                filename: string;
                                mimeType: string;
                                /** @description Bytes */
                                size: number;
                                type: "image" | "video" | "gif" | "document";
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/presign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a presigned URL to upload a file with one PUT
         * @description Answers a URL to upload one file with a single `PUT` (no multipart, no API key on the upload), and the URL the file will have.
         *     1. `POST /v1/media/presign` with `{ "filename": "clip.mp4", "contentType": "video/mp4", "size": 73400320 }` (`size` optional). The answer: `{ uploadUrl, publicUrl, key, expiresIn: 3600, type }`.
         *     2. `PUT uploadUrl` with the file as the body and `Content-Type: video/mp4` (exactly the `contentType` sent in step 1), within the hour. It answers 200.
         *     3. Use `publicUrl` in a post's `mediaItems`.
         *
         *     On Herald's own storage the PUT is checked as it arrives: another Content-Type, bytes of another type (magic bytes) or more bytes than `size` (else 5GB) are refused (415, 415, 413) and nothing is stored; a used URL answers 409, an expired one 401. The file then is in the media library (`GET /v1/media`) like any upload; it is never deduplicated, so `publicUrl` is always the file's URL.
         *     With S3 storage (HERALD_STORAGE=s3) `uploadUrl` is an S3 presigned PUT URL with the Content-Type (and Content-Length when `size` is given) signed in: S3 refuses another one (403). Herald checks the bytes when it records the file in the library (at the next `GET /v1/media`, or by the worker's cleanup after the URL expired); a file that is not the declared type is deleted then.
         *     A type outside the allow-list answers 415; `size` over 5GB 413.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description One of: image/jpeg, image/jpg, image/png, image/webp, image/gif, video/mp4, video/mpeg, video/quicktime, video/avi, video/x-msvideo, video/webm, video/x-m4v, application/pdf. The PUT must send exactly this Content-Type, and the bytes must be this type. */
                        contentType: string;
                        /** @description Name of the file to upload (kept as the media file's filename) */
                        filename: string;
                        /** @description Optional file size in bytes (at most 5GB, 5368709120): the PUT may not be larger */
                        size?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Seconds until uploadUrl expires (always 3600) */
                            expiresIn: number;
                            /** @description Storage key of the file: <userId>/<uploadId>/<random>-<name>.<ext> */
                            key: string;
                            /** @description The file's URL once uploaded: use it in mediaItems[].url */
                            publicUrl: string;
                            /** @description The kind of media, from contentType (mediaItems[].type) */
                            type: "image" | "video" | "gif" | "document";
                            /** @description URL to PUT the whole file to, with Content-Type: <contentType> (expires in 1 hour; one file per URL) */
                            uploadUrl: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/upload-direct": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a temporary file (25MB, deleted after 7 days)
         * @description Uploads one file of at most 25MB as `multipart/form-data` in the field `file` (optional field `contentType` overrides the part's type) and answers its public URL: `{ url, filename, contentType, size }`.
         *     The file is **temporary**: it is not listed in the media library and is deleted 7 days after the upload, so schedule posts using it within that time (for longer, use `POST /v1/media` or `POST /v1/media/presign`). One of the allowed types, checked on the bytes (415 otherwise); a larger file answers 413.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /** @description Override of the MIME type (else the part's, or detected from the bytes) */
                        contentType?: string;
                        /**
                         * Format: binary
                         * @description The file (at most 25MB)
                         */
                        file?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description MIME type of the file, checked on its bytes */
                            contentType: string;
                            /** @description Generated unique file name */
                            filename: string;
                            /** @description Bytes */
                            size: number;
                            /** @description Public URL of the temporary file (deleted 7 days after the upload) */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List platform invites
         * @description Newest first; `profileId` is shown as `{ _id, name }`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Object id (24 hex characters) */
                    profileId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invites: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description 7 days after creation
                                 */
                                expiresAt: string;
                                inviterEmail: string;
                                inviterName: string;
                                /** @description True once an account was connected with it (invites are single use) */
                                isUsed: boolean;
                                platform: string;
                                profileId: {
                                    _id: string;
                                    name: string;
                                };
                                /** @description The invite token (also the last path segment but one of inviteUrl) */
                                token: string;
                                /** @description The user who created the invite */
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Invite a client to connect a social account to a profile
         * @description Answers the invite with its `inviteUrl`: a page that needs no login, says who invited the client and for which profile, runs the platform's connect flow and stores the account under the profile. Single use, valid for 7 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The platform the recipient connects
                         * @enum {unknown}
                         */
                        platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                        /** @description The profile the connected account joins */
                        profileId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invite: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description 7 days after creation
                                 */
                                expiresAt: string;
                                inviterEmail: string;
                                inviterName: string;
                                /** @description The page to send to the client: no login needed; it runs the platform's connect flow */
                                inviteUrl: string;
                                /** @description True once an account was connected with it (invites are single use) */
                                isUsed: boolean;
                                platform: string;
                                profileId: string;
                                /** @description The invite token (also the last path segment but one of inviteUrl) */
                                token: string;
                                /** @description The user who created the invite */
                                userId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Revoke an unused platform invite
         * @description The link stops working at once. A used invite cannot be revoked (400): disconnect the account instead.
         */
        delete: {
            parameters: {
                query: {
                    /** @description The invite's _id */
                    id: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List posts */
        get: {
            parameters: {
                query?: {
                    /** @description Object id (24 hex characters) */
                    createdBy?: string;
                    /** @description Inclusive lower bound on scheduledFor (ISO 8601) */
                    dateFrom?: string;
                    /** @description Inclusive upper bound on scheduledFor (ISO 8601) */
                    dateTo?: string;
                    includeHidden?: boolean;
                    /** @description Page size, default 10, at most 100 (larger values are clamped) */
                    limit?: number;
                    page?: number;
                    /** @description Platform id */
                    platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                    /** @description Object id (24 hex characters) */
                    profileId?: string;
                    /** @description Search posts by text content (case-insensitive; empty: no search) */
                    search?: string;
                    /** @description Sort order: scheduled-desc, scheduled-asc (posts without a time last), created-desc (the default), created-asc, status, platform */
                    sortBy?: "scheduled-desc" | "scheduled-asc" | "created-desc" | "created-asc" | "status" | "platform";
                    status?: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pagination: {
                                limit: number;
                                page: number;
                                pages: number;
                                total: number;
                            };
                            posts: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a post (draft, scheduled, or published now)
         * @description Answers 201 when saved, scheduled or published everywhere; 207 when publishNow failed on some platforms; 202 when inline publishing continues in the background. Send `Idempotency-Key` to make retries safe.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Post even if the same content went to the same account within the last 24 hours (otherwise 409 DUPLICATE_CONTENT with the earlier post's id) */
                        allowDuplicate?: boolean;
                        content?: string | null;
                        /** @description Hashtags, with or without #; added to the text where missing on platforms that take them */
                        hashtags?: string[];
                        hidden?: boolean;
                        isDraft?: boolean;
                        mediaItems?: ({
                            altText?: string;
                            filename?: string;
                            instagramThumbnail?: string;
                            mimeType?: string;
                            size?: number;
                            thumbnail?: string;
                            type?: "image" | "video" | "gif" | "document";
                            /** @description http(s) URL, usually one returned by POST /v1/media */
                            url: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Handles, with or without @; added to the text where missing on platforms that take them */
                        mentions?: string[];
                        metadata?: {
                            [key: string]: unknown;
                        };
                        platforms?: ({
                            /** @description Account id from GET /v1/accounts */
                            accountId: string;
                            customContent?: string | null;
                            customMedia?: ({
                                altText?: string;
                                filename?: string;
                                instagramThumbnail?: string;
                                mimeType?: string;
                                size?: number;
                                thumbnail?: string;
                                type?: "image" | "video" | "gif" | "document";
                                /** @description http(s) URL, usually one returned by POST /v1/media */
                                url: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /**
                             * @description Platform id
                             * @enum {unknown}
                             */
                            platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                            /** @description Per-platform options (contentType, threadItems, firstComment, subreddit, boardId, tiktokSettings, ...) */
                            platformSpecificData?: {
                                [key: string]: unknown;
                            };
                            scheduledFor?: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        publishNow?: boolean;
                        queuedFromProfile?: string | null;
                        queueId?: string | null;
                        recycling?: {
                            /** @description Texts used in turn by the copies: none ([] clears), or 2 or more */
                            contentVariations?: string[];
                            /** @description false pauses recycling (default true) */
                            enabled?: boolean;
                            /** @description Stop after this many copies (null clears) */
                            expireCount?: number | null;
                            /** @description Stop after this date, ISO 8601 (null clears) */
                            expireDate?: string | null;
                            /** @description Interval units between reposts; required when enabling */
                            gap?: number;
                            /** @description Interval unit, default month */
                            gapFreq?: "week" | "month";
                            /** @description ISO 8601; default: the post's scheduledFor */
                            startDate?: string | null;
                        } | null;
                        scheduledFor?: string | null;
                        tags?: string[];
                        timezone?: string | null;
                        title?: string | null;
                        visibility?: "public" | "private" | "unlisted";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                207: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a post */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /** Update a post (draft, scheduled, failed or partial) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        content?: string | null;
                        /** @description Hashtags, with or without #; added to the text where missing on platforms that take them */
                        hashtags?: string[];
                        hidden?: boolean;
                        isDraft?: boolean;
                        mediaItems?: ({
                            altText?: string;
                            filename?: string;
                            instagramThumbnail?: string;
                            mimeType?: string;
                            size?: number;
                            thumbnail?: string;
                            type?: "image" | "video" | "gif" | "document";
                            /** @description http(s) URL, usually one returned by POST /v1/media */
                            url: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Handles, with or without @; added to the text where missing on platforms that take them */
                        mentions?: string[];
                        metadata?: {
                            [key: string]: unknown;
                        };
                        platforms?: ({
                            /** @description Account id from GET /v1/accounts */
                            accountId: string;
                            customContent?: string | null;
                            customMedia?: ({
                                altText?: string;
                                filename?: string;
                                instagramThumbnail?: string;
                                mimeType?: string;
                                size?: number;
                                thumbnail?: string;
                                type?: "image" | "video" | "gif" | "document";
                                /** @description http(s) URL, usually one returned by POST /v1/media */
                                url: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /**
                             * @description Platform id
                             * @enum {unknown}
                             */
                            platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                            /** @description Per-platform options (contentType, threadItems, firstComment, subreddit, boardId, tiktokSettings, ...) */
                            platformSpecificData?: {
                                [key: string]: unknown;
                            };
                            scheduledFor?: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        publishNow?: boolean;
                        queuedFromProfile?: string | null;
                        queueId?: string | null;
                        recycling?: {
                            /** @description Texts used in turn by the copies: none ([] clears), or 2 or more */
                            contentVariations?: string[];
                            /** @description false pauses recycling (default true) */
                            enabled?: boolean;
                            /** @description Stop after this many copies (null clears) */
                            expireCount?: number | null;
                            /** @description Stop after this date, ISO 8601 (null clears) */
                            expireDate?: string | null;
                            /** @description Interval units between reposts; required when enabling */
                            gap?: number;
                            /** @description Interval unit, default month */
                            gapFreq?: "week" | "month";
                            /** @description ISO 8601; default: the post's scheduledFor */
                            startDate?: string | null;
                        } | null;
                        scheduledFor?: string | null;
                        tags?: string[];
                        timezone?: string | null;
                        title?: string | null;
                        visibility?: "public" | "private" | "unlisted";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                207: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                            message: string;
                            platformResults?: {
                                accountId: string;
                                error: string | null;
                                platform: string;
                                platformPostUrl: string | null;
                                status: string;
                            }[];
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a post (not published ones) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A post's review: its state and every step (who, when, what) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approval: {
                                canApprove: boolean;
                                events: {
                                    _id: string;
                                    actor: {
                                        name: string;
                                        type: "user" | "client";
                                        userId: string | null;
                                    };
                                    comment: string | null;
                                    /** Format: date-time */
                                    createdAt: string;
                                    details: {
                                        [key: string]: unknown;
                                    };
                                    kind: "submitted" | "approved" | "changes_requested" | "edited";
                                }[];
                                postId: string;
                                required: boolean;
                                state: "none" | "pending" | "approved" | "changes_requested";
                                status: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a post waiting for approval
         * @description The post takes the time or queue slot it was submitted with; when that time has passed, the next free slot of its profile's queue (or at once without a queue): `moved` and the message say so. 403 unless the caller may approve every profile of the post.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description True when it is not the time it was submitted with (that time had passed or its slot was taken) */
                            moved?: boolean;
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            /**
                             * Format: date-time
                             * @description When the approved post publishes
                             */
                            scheduledFor?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A post's comments: the team's internal notes and the client's comments */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            comments: {
                                _id: string;
                                author: {
                                    name: string;
                                    type: "user" | "client";
                                    userId: string | null;
                                };
                                body: string;
                                /** Format: date-time */
                                createdAt: string;
                                mentions: string[];
                                visibility: "internal" | "client";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add an internal note to a post (never shown to clients)
         * @description Mentions: `@name` in the text (a member's email, its part before the @, their full or first name; a handle two members share names neither) and the user ids in `mentions`; each is told by mail (when SMTP is configured) and in the `post.commented` webhook event.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        body: string;
                        mentions?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            comment: {
                                _id: string;
                                author: {
                                    name: string;
                                    type: "user" | "client";
                                    userId: string | null;
                                };
                                body: string;
                                /** Format: date-time */
                                createdAt: string;
                                mentions: string[];
                                visibility: "internal" | "client";
                            };
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a published post on its platform
         * @description Changes the text of the post's published target on `platform` (the first of that platform, or `accountId`'s) through the platform's edit endpoint. Herald edits on facebook, linkedin, youtube, pinterest, reddit, googlebusiness, discord, telegram, mastodon; any other platform answers 400 naming `platform` and why (the platform has no edit endpoint, or Herald does not call it yet). The text is checked against the platform's rules first (400 naming `content` and the rule). The target's stored text changes and the publishing log records the edit (action `edit`: who, what changed, the platform's answer). A post not published yet is changed with PUT /v1/posts/{postId} instead (409 here). On a profile that requires approval only an approver edits (403 `approval_required`). Send `Idempotency-Key` to make retries safe.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Which account's copy to edit when the post went to several accounts of the platform; default the first */
                        accountId?: string;
                        /** @description The new text of the post */
                        content: string;
                        /**
                         * @description The platform to edit the post on
                         * @enum {string}
                         */
                        platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The platform post id after the edit (X gives an edit a new id; the others keep it) */
                            id: string;
                            message: string;
                            success: boolean;
                            /** @description URL of the edited post */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a post's publishing logs
         * @description Each entry is one step of publishing: action `publish`, `retry`, `verify` (asking the platform whether an interrupted publish went through), `media_upload`, `rate_limit_pause`, `token_refresh`, `unpublish`, `edit` or `update_metadata` (an edit of a published post, with `actorId`, who asked, and `changes`, each field before and after), with the platform, status (`success`, `failed`, `pending`, `skipped`), the platform's HTTP status and endpoint when it answered with an error, the duration, the attempt number, the error category and an excerpt of the platform's answer (at most 2,000 characters, tokens and secrets removed). Entries are kept 90 days. Newest first; all 90 days unless `days` is given.
         */
        get: {
            parameters: {
                query?: {
                    action?: "publish" | "retry" | "verify" | "media_upload" | "token_refresh" | "rate_limit_pause" | "unpublish" | "edit" | "update_metadata";
                    /** @description Days to look back (default 7, at most 90) */
                    days?: number;
                    /** @description ISO 8601 instant: entries from then on (within `days`) */
                    from?: string;
                    /** @description Entries per page (default 50, at most 100) */
                    limit?: number;
                    /** @description Page number (1-based); used when `skip` is absent */
                    page?: number;
                    platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon" | "all";
                    /** @description Correlation id: the entries one API request spawned, by the `x-request-id` Herald answered it with (a caller's own `x-request-id` when it sent one). For POST /v1/posts: every publish, retry and verify of the post it created; for an unpublish: the entries it wrote. Each entry carries it as `requestId` */
                    requestId?: string;
                    /** @description Free-text search: entries whose error message, endpoint, platform answer excerpt, error category, action, platform, post, target or account id contains this text (case-insensitive) */
                    search?: string;
                    /** @description Entries to skip */
                    skip?: number;
                    status?: "success" | "failed" | "pending" | "skipped" | "all";
                    /** @description ISO 8601 instant: entries up to then */
                    to?: string;
                    /** @description Log category. Herald keeps publishing logs here (every entry is `publishing`): `all` and `publishing` list them, the other categories of the Late API have no entries (webhook deliveries are listed by GET /v1/webhooks/logs) */
                    type?: "all" | "publishing" | "connections" | "webhooks" | "messaging" | "workflow_event" | "api_request";
                };
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            logs: {
                                _id: string;
                                account_id: string | null;
                                accountId: string | null;
                                /** @description One of publish, retry, verify, media_upload, token_refresh, rate_limit_pause, unpublish, edit, update_metadata */
                                action: string;
                                /** @description edit and update_metadata: the user who asked for the change */
                                actorId?: string;
                                /** @description The target's attempt this entry belongs to (0 for token refresh, unpublish and edits) */
                                attemptNumber: number;
                                /** @description edit and update_metadata: each field changed (content, title, description, tags, ...) with its value before and after */
                                changes?: {
                                    [key: string]: {
                                        from: unknown;
                                        to: unknown;
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                createdAt: string;
                                duration_ms: number | null;
                                durationMs: number | null;
                                /** @description The platform endpoint called (method and path) */
                                endpoint: string | null;
                                error_message: string | null;
                                errorCategory: string | null;
                                errorMessage: string | null;
                                /** Format: date-time */
                                finishedAt: string | null;
                                /** @description The platform's HTTP status, when it answered with an error */
                                httpStatus: number | null;
                                /** @description prepare, commit, verify, token_refresh, unpublish, edit or update_metadata */
                                phase: string;
                                platform: string | null;
                                postId: string | null;
                                request_id: string | null;
                                /** @description The API request that spawned the entry: the one that wrote it (unpublish), else the one that created its post */
                                requestId: string | null;
                                response_body: string | null;
                                /** @description The start of the platform's answer (at most 2,000 characters, secrets removed) */
                                responseExcerpt: string | null;
                                /** @enum {string} */
                                status: "success" | "failed" | "pending" | "skipped";
                                status_code: number | null;
                                targetId: string | null;
                                /** @enum {string} */
                                type: "publishing";
                            }[];
                            pagination: {
                                hasMore: boolean;
                                limit: number;
                                page: number;
                                pages: number;
                                skip: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/request-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request changes on a post waiting for approval
         * @description The post goes back to its author as a draft (keeping its time and queue) with the comment; they edit it and submit it again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        comment: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @description True when it is not the time it was submitted with (that time had passed or its slot was taken) */
                            moved?: boolean;
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            /**
                             * Format: date-time
                             * @description When the approved post publishes
                             */
                            scheduledFor?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed or partially published post, or one of its failed targets
         * @description Publishes the failed platforms of a `failed` or `partial` post again, at once; platforms already published are left as they are. A partial post is `publishing` meanwhile. 409 for any other status, or when no platform failed (cancelled ones are not retried). Herald extension: the optional body `{ accountId?, platform? }` retries only the failed target of that account (or the failed targets on that platform) and leaves the other failed ones as they are; 400 naming the field when no target of the post matches it or the matching target is not failed. On a profile that requires approval, a caller who may not approve there retries only a post whose text is the approved one (403 `approval_required` otherwise: an approver retries it, or a new time sends it for review).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Retry only the target of this account (its _id in the post's platforms[].accountId); it must be failed */
                        accountId?: string;
                        /**
                         * @description Retry only the targets on this platform; at least one must be failed
                         * @enum {unknown}
                         */
                        platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a draft for review
         * @description The draft (for example one sent back with changes requested) becomes `pending_approval` with the time, queue or publishNow it has.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpublish a post (delete it from the platforms)
         * @description Deletes the post from each platform that allows it (facebook, linkedin, twitter, threads, youtube, pinterest, reddit, bluesky, googlebusiness, discord, telegram, mastodon), cancels targets not published yet, and says which platforms cannot delete (`outcome: not_supported`: delete it there yourself). The post becomes `cancelled` when nothing of it is left live, else `partial`. Safe to repeat: a target already taken back is not sent again. `platform` limits it to one platform.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        platform?: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            post: {
                                _id: string;
                                content: string;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                hashtags: string[];
                                hidden: boolean;
                                isDraft: boolean;
                                mediaItems: {
                                    [key: string]: unknown;
                                }[];
                                mentions: string[];
                                metadata: {
                                    [key: string]: unknown;
                                };
                                platforms: {
                                    _id: string;
                                    accountId: {
                                        _id: string;
                                        displayName: string;
                                        isActive: boolean;
                                        platform: string;
                                        username: string;
                                    } | string;
                                    attempts: number;
                                    customContent: string | null;
                                    /** @description Extra copies of this post on the platform, published by a worker that had lost the target (a paused process): unpublish them there. Announced as post.platform.duplicate */
                                    duplicates?: {
                                        platformPostId: string;
                                        platformPostUrl: string | null;
                                    }[];
                                    /** @description Why the target failed (or why its retry waits), for programs: the official client's categories (decision 0063: Herald's failure reasons mapped in one table) */
                                    errorCategory: ("auth_expired" | "user_content" | "user_abuse" | "account_issue" | "platform_rejected" | "platform_error" | "platform_rate_limit" | "quota_exhausted" | "system_error" | "unknown") | null;
                                    errorMessage: string | null;
                                    /** @description Who has to act: user (fix the content or reconnect), platform (outage, limits), system (this server) */
                                    errorSource: ("user" | "platform" | "system") | null;
                                    /**
                                     * Format: date-time
                                     * @description The platform holds the post and makes it public itself at this time (a YouTube video uploaded ahead, private with publishAt); the target stays pending, with its platformPostUrl, until then
                                     */
                                    goesLiveAt?: string;
                                    /** @description Seconds from the post's scheduled time to its publication here (present once published): how late Herald published it (workers down, retries, rate limits) */
                                    lateSeconds?: number;
                                    platform: string;
                                    platformPostId: string | null;
                                    platformPostUrl: string | null;
                                    platformSpecificData: {
                                        [key: string]: unknown;
                                    };
                                    /** Format: date-time */
                                    publishedAt: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When POST /v1/posts/{id}/unpublish deleted it from the platform
                                     */
                                    removedFromPlatformAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description This target's own time (present only when it has one; else it runs at the post's scheduledFor)
                                     */
                                    scheduledFor?: string;
                                    /** @description pending | publishing | published | failed | cancelled (draft for draft posts) */
                                    status: string;
                                    thread?: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    /** @description Why unpublish could not delete it (not_supported: the platform lets no app delete posts) */
                                    unpublishError?: string;
                                }[];
                                /** Format: date-time */
                                publishedAt: string | null;
                                publishNow: boolean;
                                queuedFromProfile: string | null;
                                queueId: string | null;
                                /** @description The post this one is a recycled copy of */
                                recycledFromPostId?: string;
                                recycling?: {
                                    /** @description The variation the next copy takes (0-based) */
                                    contentVariationIndex: number;
                                    contentVariations?: string[];
                                    /** @description Recycling is active: copies will be created */
                                    enabled: boolean;
                                    expireCount?: number;
                                    /** Format: date-time */
                                    expireDate?: string;
                                    gap: number;
                                    gapFreq: "week" | "month";
                                    /** Format: date-time */
                                    lastRecycledAt?: string;
                                    /**
                                     * Format: date-time
                                     * @description When the next copy is due (absent when paused or finished)
                                     */
                                    nextRecycleAt?: string;
                                    /** @description Copies created so far */
                                    recycleCount: number;
                                    /** Format: date-time */
                                    startDate: string;
                                };
                                /** Format: date-time */
                                scheduledFor: string | null;
                                /** @enum {unknown} */
                                status: "draft" | "pending_approval" | "scheduled" | "publishing" | "published" | "failed" | "partial" | "cancelled";
                                tags: string[];
                                thread?: {
                                    accountId: string;
                                    items: {
                                        platformPostId: string;
                                        platformPostUrl: string;
                                    }[];
                                    platform: string;
                                }[];
                                timezone: string;
                                title: string | null;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                                visibility: string;
                            };
                            results: {
                                accountId: string;
                                error?: string;
                                /** @enum {string} */
                                outcome: "deleted" | "already_removed" | "cancelled" | "not_supported" | "failed";
                                platform: string;
                                targetId: string;
                            }[];
                            /** @description True when nothing of the post is left live */
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/update-metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Update a published YouTube video's metadata
         * @description Changes the title, description, tags, category, privacy, made-for-kids or synthetic-media flag of a published YouTube video (videos.update); fields left out stay as YouTube has them. Post mode: `postId` is a post with a published YouTube target (`accountId` picks one of several), whose stored title, description and options change too. Direct mode: `postId` is `_` with `videoId` and `accountId` (a YouTube account of yours): any video of that channel. Each field is checked against YouTube's rules first (400 naming the field and rule). `thumbnailUrl` and `playlistId` are not supported yet (400 naming them). On a profile that requires approval only an approver updates (403 `approval_required`). Logged as `update_metadata`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description Post id, or `_` for direct mode */
                    postId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The YouTube account (required in direct mode) */
                        accountId?: string;
                        /** @description YouTube video category id */
                        categoryId?: string;
                        containsSyntheticMedia?: boolean;
                        /** @description New description (at most 5,000 bytes) */
                        description?: string;
                        madeForKids?: boolean;
                        /**
                         * @description The platform to update metadata on
                         * @enum {string}
                         */
                        platform: "youtube";
                        /** @description Not supported yet (400) */
                        playlistId?: string;
                        /** @enum {string} */
                        privacyStatus?: "public" | "private" | "unlisted";
                        /** @description Keyword tags (at most 500 characters together) */
                        tags?: string[];
                        /** @description Not supported yet (400) */
                        thumbnailUrl?: string;
                        /** @description New title (at most 100 characters, no < or >) */
                        title?: string;
                        /** @description YouTube video id (direct mode) */
                        videoId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            success: boolean;
                            updatedFields: string[];
                            /** @description Direct mode only */
                            videoId?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/bulk-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create posts from a CSV file (multipart field "file")
         * @description Columns: platforms and profiles (required); schedule_time + tz, or publish_now / is_draft / use_queue = true; post_content (or title); media_urls; tags; visibility; custom_content_<platform>; <platform>_thread_items; first_comment; subreddit; board_id; link. At most 5,000 rows. 200 when every row is valid, 207 when some are (valid rows are created), 400 when the file is unusable or no row is valid. dryRun=true validates and creates nothing.
         */
        post: {
            parameters: {
                query?: {
                    dryRun?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dryRun: boolean;
                            invalid: number;
                            results: {
                                createdPostId: string | null;
                                /** @description The same errors with message and CSV column */
                                errorDetails: {
                                    code: string;
                                    column?: string;
                                    message: string;
                                }[];
                                /** @description Error codes, e.g. profiles_missing */
                                errors: string[];
                                ok: boolean;
                                /** @description 1 = the first row after the header */
                                rowIndex: number;
                            }[];
                            total: number;
                            valid: number;
                            warnings: string[];
                        };
                    };
                };
                /** @description Default Response */
                207: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dryRun: boolean;
                            invalid: number;
                            results: {
                                createdPostId: string | null;
                                /** @description The same errors with message and CSV column */
                                errorDetails: {
                                    code: string;
                                    column?: string;
                                    message: string;
                                }[];
                                /** @description Error codes, e.g. profiles_missing */
                                errors: string[];
                                ok: boolean;
                                /** @description 1 = the first row after the header */
                                rowIndex: number;
                            }[];
                            total: number;
                            valid: number;
                            warnings: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dryRun: boolean;
                            invalid: number;
                            results: {
                                createdPostId: string | null;
                                /** @description The same errors with message and CSV column */
                                errorDetails: {
                                    code: string;
                                    column?: string;
                                    message: string;
                                }[];
                                /** @description Error codes, e.g. profiles_missing */
                                errors: string[];
                                ok: boolean;
                                /** @description 1 = the first row after the header */
                                rowIndex: number;
                            }[];
                            total: number;
                            valid: number;
                            warnings: string[];
                        } | components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List profiles */
        get: {
            parameters: {
                query?: {
                    includeOverLimit?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            profiles: {
                                _id: string;
                                color: string;
                                /** Format: date-time */
                                createdAt: string;
                                description: string;
                                isDefault: boolean;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Create a profile */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        color?: string | null;
                        description?: string | null;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            profile: {
                                _id: string;
                                color: string;
                                /** Format: date-time */
                                createdAt: string;
                                description: string;
                                isDefault: boolean;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{profileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a profile */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            profile: {
                                _id: string;
                                color: string;
                                /** Format: date-time */
                                createdAt: string;
                                description: string;
                                isDefault: boolean;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /** Update a profile */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        color?: string | null;
                        description?: string | null;
                        isDefault?: boolean;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            profile: {
                                _id: string;
                                color: string;
                                /** Format: date-time */
                                createdAt: string;
                                description: string;
                                isDefault: boolean;
                                name: string;
                                /** Format: date-time */
                                updatedAt: string;
                                userId: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a profile (refused while accounts are connected) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{profileId}/approval-rule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a profile's approval rule */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rule: {
                                /** @description Team members who may approve besides the owner */
                                approverIds: string[];
                                /** @description Whether the caller may approve posts of this profile */
                                canApprove: boolean;
                                /** @description The client may approve through a review link */
                                clientApproval: boolean;
                                profileId: string;
                                /** @description Posts going out on this profile by someone who may not approve wait for approval */
                                required: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Set a profile's approval rule (owner only)
         * @description With `required`, a post scheduled, queued or published on this profile by a member who may not approve here is saved `pending_approval` and publishes only once approved. The owner always may approve; `approverIds` names members who may too; `clientApproval` lets the client approve through a review link.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approverIds?: string[];
                        clientApproval?: boolean;
                        required: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            rule: {
                                /** @description Team members who may approve besides the owner */
                                approverIds: string[];
                                /** @description Whether the caller may approve posts of this profile */
                                canApprove: boolean;
                                /** @description The client may approve through a review link */
                                clientApproval: boolean;
                                profileId: string;
                                /** @description Posts going out on this profile by someone who may not approve wait for approval */
                                required: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{profileId}/clone-connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Share a connected account with another profile (no new OAuth)
         * @description The clone uses the source account's stored authorization: a token refresh, reconnect or revocation applies to every clone, and disconnecting one leaves the others working. Facebook: targetPageId points the clone at another Page the user manages (checked with Facebook). LinkedIn: targetOrganizationId or targetOrganizationUrn publishes as another organization the member administers (checked with LinkedIn), targetAccountType personal as the member (an organization named beside "personal" wins, with a warning: n8n sends "personal" by default). Target fields of another platform (Late's documented body sends the Page and the organization fields whatever the source) are ignored and named in `warnings`. Also accepts a dashboard session.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The profile that receives the clone */
                    profileId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The connected account to clone (any of your profiles) */
                        sourceAccountId: string;
                        /** @description LinkedIn: publish as the member or an organization */
                        targetAccountType?: "personal" | "organization";
                        /** @description LinkedIn: numeric company id */
                        targetOrganizationId?: string;
                        /** @description LinkedIn: informational; the name is read from LinkedIn */
                        targetOrganizationName?: string;
                        /** @description LinkedIn: urn:li:organization:<id> */
                        targetOrganizationUrn?: string;
                        /** @description Facebook: ignored; the Page token is read from Facebook with the stored authorization */
                        targetPageAccessToken?: string;
                        /** @description Facebook: the Page to publish to */
                        targetPageId?: string;
                        /** @description Facebook: informational; the name is read from Facebook */
                        targetPageName?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            connection: {
                                _id: string;
                                displayName: string;
                                isActive: boolean;
                                platform: string;
                                profileId: string;
                                username: string;
                            };
                            message: string;
                            /** @description Target fields of another platform that were ignored */
                            warnings?: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/queue/arrange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move queued posts to other slots: reorder, swap, or fill a free slot (Herald extension)
         * @description Each move puts a post waiting in the queue (the default queue, or queueId; scheduled, not started) at a future slot of that queue. The moves happen together, so two posts can trade slots: `{ moves: [{ postId: A, slot: <B's time> }, { postId: B, slot: <A's time> }] }`. A slot held by a post that does not move is refused (400 naming `moves.<i>.slot`). The posts' pending targets take the new time.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        moves: {
                            /** @description A post queued in this queue */
                            postId: string;
                            /**
                             * Format: date-time
                             * @description A slot instant (from GET /v1/queue/preview)
                             */
                            slot: string;
                        }[];
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                        queueId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            moved: {
                                _id: string;
                                /** Format: date-time */
                                scheduledFor: string;
                            }[];
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/queue/next-slot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The next free slot of a queue (occupied times are skipped) */
        get: {
            parameters: {
                query: {
                    /** @description Profile whose queue this is */
                    profileId: string;
                    /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                    queueId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            nextSlot: string | null;
                            profileId: string;
                            queueId: string;
                            queueName: string;
                            timezone: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/queue/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Preview the next slots of a queue (existing posts are not considered) */
        get: {
            parameters: {
                query: {
                    count?: number;
                    /** @description Object id (24 hex characters) */
                    profileId: string;
                    /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                    queueId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            profileId: string;
                            queueId: string;
                            queueName: string;
                            slots: string[];
                            timezone: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/queue/slots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a profile's queue (the default, or queueId) and its next slots, or with all=true every queue of the profile */
        get: {
            parameters: {
                query: {
                    /** @description `true`: list every queue of the profile as `{ queues, count }` */
                    all?: "true" | "false";
                    /** @description Profile whose queues these are */
                    profileId: string;
                    /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                    queueId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            exists: boolean;
                            nextSlots: string[];
                            schedule: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                isDefault: boolean;
                                name: string;
                                profileId: string;
                                slots: {
                                    /** @description 0 = Sunday .. 6 = Saturday */
                                    dayOfWeek: number;
                                    /** @description 24-hour HH:mm in the queue time zone */
                                    time: string;
                                }[];
                                timezone: string;
                                /** Format: date-time */
                                updatedAt: string;
                            } | null;
                        } | {
                            count: number;
                            queues: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                isDefault: boolean;
                                name: string;
                                profileId: string;
                                slots: {
                                    /** @description 0 = Sunday .. 6 = Saturday */
                                    dayOfWeek: number;
                                    /** @description 24-hour HH:mm in the queue time zone */
                                    time: string;
                                }[];
                                timezone: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Update a queue (queueId), or create or replace the profile's default queue
         * @description Without queueId, the default queue is updated (created when the profile has none: isNewQueue). setAsDefault: true makes the queue the default. With reshuffleExisting=true, the queue's queued posts keep their order and move to the new slots; otherwise they keep their times.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** @description Queue name (e.g. "Evening Posts"), unique within the profile */
                        name?: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                        queueId?: string;
                        /** @default false */
                        reshuffleExisting?: boolean;
                        /** @description Make this queue the profile's default */
                        setAsDefault?: boolean;
                        slots: {
                            /** @description 0 = Sunday .. 6 = Saturday */
                            dayOfWeek: number;
                            /** @description 24-hour HH:mm in the queue time zone */
                            time: string;
                        }[];
                        /** @description IANA time zone */
                        timezone: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            isNewQueue: boolean;
                            nextSlots: string[];
                            reshuffledCount: number;
                            schedule: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                isDefault: boolean;
                                name: string;
                                profileId: string;
                                slots: {
                                    /** @description 0 = Sunday .. 6 = Saturday */
                                    dayOfWeek: number;
                                    /** @description 24-hour HH:mm in the queue time zone */
                                    time: string;
                                }[];
                                timezone: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Create a named queue for a profile
         * @description A profile can have several queues (up to 20), each with its own weekly slots; the first one is the default, used when a call gives no queueId.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** @description Queue name (e.g. "Evening Posts"), unique within the profile */
                        name: string;
                        /** @description Object id (24 hex characters) */
                        profileId: string;
                        slots: {
                            /** @description 0 = Sunday .. 6 = Saturday */
                            dayOfWeek: number;
                            /** @description 24-hour HH:mm in the queue time zone */
                            time: string;
                        }[];
                        /** @description IANA time zone */
                        timezone: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            nextSlots: string[];
                            schedule: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                isDefault: boolean;
                                name: string;
                                profileId: string;
                                slots: {
                                    /** @description 0 = Sunday .. 6 = Saturday */
                                    dayOfWeek: number;
                                    /** @description 24-hour HH:mm in the queue time zone */
                                    time: string;
                                }[];
                                timezone: string;
                                /** Format: date-time */
                                updatedAt: string;
                            };
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Delete a queue (queueId), or every queue of the profile; queued posts keep their times
         * @description The default queue can be deleted by id only as the profile's last queue: make another queue the default first.
         */
        delete: {
            parameters: {
                query: {
                    /** @description Profile whose queue this is */
                    profileId: string;
                    /** @description A queue of the profile (`_id` of a queue from GET /v1/queue/slots?all=true); omitted: the profile's default queue */
                    queueId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                            deletedCount: number;
                            message: string;
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reddit/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a subreddit (or the front page) through a Reddit account */
        get: {
            parameters: {
                query: {
                    /** @description The Reddit account to read with */
                    accountId: string;
                    /** @description A fullname cursor from a previous page */
                    after?: string;
                    limit?: number;
                    /** @description Default hot */
                    sort?: "hot" | "new" | "top" | "rising";
                    /** @description Subreddit; the account's front page when absent */
                    subreddit?: string;
                    /** @description Time window, with sort=top only */
                    t?: "hour" | "day" | "week" | "month" | "year" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `after` for the next page; null on the last page */
                            after: string | null;
                            before: string | null;
                            items: {
                                author: string;
                                /** @description Unix seconds */
                                createdUtc: number;
                                flairText: string | null;
                                /** @description t3_<id> */
                                fullname: string;
                                /** @description Base36 id, no prefix */
                                id: string;
                                numComments: number;
                                over18: boolean;
                                /** @description Absolute https://www.reddit.com/... URL */
                                permalink: string;
                                score: number;
                                selftext: string;
                                stickied: boolean;
                                /** @description Without r/ */
                                subreddit: string;
                                title: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reddit/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search Reddit posts through a Reddit account */
        get: {
            parameters: {
                query: {
                    /** @description The Reddit account to search with */
                    accountId: string;
                    /** @description A fullname cursor from a previous page */
                    after?: string;
                    limit?: number;
                    /** @description Search terms */
                    q: string;
                    /** @description Only this subreddit (default when subreddit is given) */
                    restrict_sr?: "true" | "false" | "1" | "0";
                    /** @description Default new */
                    sort?: "relevance" | "hot" | "top" | "new" | "comments";
                    /** @description Search within this subreddit */
                    subreddit?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Pass as `after` for the next page; null on the last page */
                            after: string | null;
                            before: string | null;
                            items: {
                                author: string;
                                /** @description Unix seconds */
                                createdUtc: number;
                                flairText: string | null;
                                /** @description t3_<id> */
                                fullname: string;
                                /** @description Base36 id, no prefix */
                                id: string;
                                numComments: number;
                                over18: boolean;
                                /** @description Absolute https://www.reddit.com/... URL */
                                permalink: string;
                                score: number;
                                selftext: string;
                                stickied: boolean;
                                /** @description Without r/ */
                                subreddit: string;
                                title: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/review-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List review links (no tokens) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            reviewLinks: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                /** Format: date-time */
                                expiresAt: string;
                                from: string | null;
                                kind: "post" | "batch";
                                label: string;
                                postId: string | null;
                                profileId: string | null;
                                revokedAt: string | null;
                                to: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a client review link (one post, or a profile's posts in a time range)
         * @description Answers the link's `url` (and `token`) once: Herald stores only its SHA-256. The page needs no login, shows each post as it will look per platform, and lets the client approve, request changes and comment. Valid `expiresInDays` (default 7); revocable.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        expiresInDays?: number;
                        /** Format: date-time */
                        from?: string;
                        label?: string;
                        /** @description Object id (24 hex characters) */
                        postId?: string;
                        /** @description Object id (24 hex characters) */
                        profileId?: string;
                        /** Format: date-time */
                        to?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            reviewLink: {
                                _id: string;
                                active: boolean;
                                /** Format: date-time */
                                createdAt: string;
                                createdBy: string;
                                /** Format: date-time */
                                expiresAt: string;
                                from: string | null;
                                kind: "post" | "batch";
                                label: string;
                                postId: string | null;
                                profileId: string | null;
                                revokedAt: string | null;
                                to: string | null;
                            };
                            token: string;
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/review-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a review link (it stops working at once) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    linkId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe sandbox mode (simulated platforms, the Bluesky test account, a walk-through)
         * @description In sandbox mode (HERALD_SANDBOX=on) every platform is a local simulator and real platform credentials are not used; every /v1 response carries `X-Herald-Sandbox: true`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bluesky?: {
                                /** @description App password for POST /v1/connect/bluesky/credentials */
                                appPassword: string;
                                connect: string;
                                did: string;
                                /** @description Handle of the ready-made account */
                                identifier: string;
                                serviceUrl: string;
                                stateUrl: string;
                            } | null;
                            /** @description True when Herald runs in sandbox mode (HERALD_SANDBOX=on) */
                            enabled: boolean;
                            message: string;
                            /** @description Platforms that cannot be connected in this sandbox */
                            notSimulated?: string[];
                            /** @description Simulated OAuth platforms */
                            platforms?: {
                                connect: string;
                                platform: string;
                                simulatorUrl: string;
                                stateUrl: string;
                            }[];
                            walkthrough?: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/{platform}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a platform simulator holds now of your posts
         * @description Sandbox mode only. Every sandbox user shares the simulators' one simulated platform user, so the simulator's lists are cut to your own posts (those Herald published for you, their thread items, comments and counters); the simulated user, pages, organizations, boards and subreddits are shown as they are. Lists are cut to their last 50 entries.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            platform: string;
                            state: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/validate/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a media URL against the platforms' rules
         * @description Herald fetches the URL (public addresses only, at most 512 MB, 60 s), reads its type from its bytes and its pixel size, duration and codecs, and checks it against each platform's media rules, as a post with it would be checked. Answers 200 with `valid: false` and `error` for a URL that cannot be read or is not media; with `platforms`, `valid` also needs every one of them to take it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Herald: the platforms the media must suit (valid is false when one refuses it); default every platform, each judged in `platforms` without deciding `valid` */
                        platforms?: ("facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon")[];
                        /** @description Public media URL to validate (http or https) */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The media type read from the file's bytes (else the server's Content-Type) */
                            contentType?: string;
                            /** @description Seconds (video) */
                            duration?: number;
                            /** @description Why valid is false */
                            error?: string;
                            /** @description Frames of a GIF */
                            frames?: number;
                            height?: number;
                            /** @description Herald's media item type */
                            mediaType?: "image" | "video" | "gif" | "document";
                            /** @description Per-platform size limit, where the platform has one for the type */
                            platformLimits?: {
                                [key: string]: {
                                    /** @description The platform's size limit for this type, bytes */
                                    limit: number;
                                    limitFormatted: string;
                                    withinLimit: boolean;
                                };
                            };
                            /** @description Each platform's verdict by its media rules (type, size, pixel size, aspect ratio, duration, codecs, GIF frames) */
                            platforms?: {
                                [key: string]: {
                                    errors: {
                                        message: string;
                                        /** @description The rule's id in the platform rule table */
                                        rule: string;
                                    }[];
                                    valid: boolean;
                                };
                            };
                            /** @description Why duration or pixel size could not be read (e.g. no ffprobe): their rules are left to the platform */
                            probeError?: string;
                            /** @description Bytes; null when the file could not be read */
                            size: number | null;
                            sizeFormatted?: string;
                            /** @description image (GIFs included), video, or unknown */
                            type: "image" | "video" | "unknown";
                            url: string;
                            /** @description The URL is an image or video Herald publishes, and every platform named in `platforms` takes it */
                            valid: boolean;
                            videoCodec?: string;
                            /** @description Pixels, as displayed */
                            width?: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/validate/post": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a post without saving it
         * @description Runs every check of POST /v1/posts (schedule, time zone, tags, media, accounts, each platform's rules, duplicate content) and saves nothing. Takes the same body. A post without `scheduledFor` or `queuedFromProfile` is checked as if published now; `isDraft` is ignored. Answers 200 with `valid` and the problems by field and platform (a malformed body is still a 400).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Post even if the same content went to the same account within the last 24 hours (otherwise 409 DUPLICATE_CONTENT with the earlier post's id) */
                        allowDuplicate?: boolean;
                        content?: string | null;
                        /** @description Hashtags, with or without #; added to the text where missing on platforms that take them */
                        hashtags?: string[];
                        hidden?: boolean;
                        isDraft?: boolean;
                        mediaItems?: ({
                            altText?: string;
                            filename?: string;
                            instagramThumbnail?: string;
                            mimeType?: string;
                            size?: number;
                            thumbnail?: string;
                            type?: "image" | "video" | "gif" | "document";
                            /** @description http(s) URL, usually one returned by POST /v1/media */
                            url: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Handles, with or without @; added to the text where missing on platforms that take them */
                        mentions?: string[];
                        metadata?: {
                            [key: string]: unknown;
                        };
                        platforms?: ({
                            /** @description Account id from GET /v1/accounts */
                            accountId: string;
                            customContent?: string | null;
                            customMedia?: ({
                                altText?: string;
                                filename?: string;
                                instagramThumbnail?: string;
                                mimeType?: string;
                                size?: number;
                                thumbnail?: string;
                                type?: "image" | "video" | "gif" | "document";
                                /** @description http(s) URL, usually one returned by POST /v1/media */
                                url: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /**
                             * @description Platform id
                             * @enum {unknown}
                             */
                            platform: "facebook" | "instagram" | "linkedin" | "twitter" | "threads" | "tiktok" | "youtube" | "pinterest" | "reddit" | "bluesky" | "googlebusiness" | "discord" | "telegram" | "mastodon";
                            /** @description Per-platform options (contentType, threadItems, firstComment, subreddit, boardId, tiktokSettings, ...) */
                            platformSpecificData?: {
                                [key: string]: unknown;
                            };
                            scheduledFor?: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        publishNow?: boolean;
                        queuedFromProfile?: string | null;
                        queueId?: string | null;
                        recycling?: {
                            /** @description Texts used in turn by the copies: none ([] clears), or 2 or more */
                            contentVariations?: string[];
                            /** @description false pauses recycling (default true) */
                            enabled?: boolean;
                            /** @description Stop after this many copies (null clears) */
                            expireCount?: number | null;
                            /** @description Stop after this date, ISO 8601 (null clears) */
                            expireDate?: string | null;
                            /** @description Interval units between reposts; required when enabling */
                            gap?: number;
                            /** @description Interval unit, default month */
                            gapFreq?: "week" | "month";
                            /** @description ISO 8601; default: the post's scheduledFor */
                            startDate?: string | null;
                        } | null;
                        scheduledFor?: string | null;
                        tags?: string[];
                        timezone?: string | null;
                        title?: string | null;
                        visibility?: "public" | "private" | "unlisted";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Set when POST /v1/posts would answer 409 DUPLICATE_CONTENT (same content to the account within 24 hours) */
                            duplicateOf?: {
                                accountId: string;
                                existingPostId: string;
                            };
                            errors: {
                                /** @description What is wrong, naming the rule */
                                error: string;
                                /** @description The request field, as in a 400's details.fields (e.g. platforms.0.customContent) */
                                field: string;
                                /** @description The platform the problem belongs to, when it belongs to one */
                                platform?: string;
                            }[];
                            /** @description The errors by field, as a 400 VALIDATION_ERROR of POST /v1/posts gives them */
                            fields: {
                                [key: string]: string[];
                            };
                            message: string;
                            valid: boolean;
                            warnings: {
                                platform?: string;
                                warning: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/validate/post-length": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure a text on every platform
         * @description Each platform's count in its own unit (X: weighted characters, where URLs count 23 and emoji and CJK 2; Bluesky: graphemes), its limit and whether the text fits.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The post text to measure */
                        text: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            platforms: {
                                [key: string]: {
                                    /** @description Length in the platform's unit */
                                    count: number;
                                    /** @description The platform's maximum */
                                    limit: number;
                                    remaining: number;
                                    /** @description characters, graphemes, weighted characters (X) or UTF-16 units */
                                    unit: string;
                                    valid: boolean;
                                };
                            };
                            text: string;
                            /** @description X's weighted length (URLs 23, emoji and CJK 2), as twitter-text counts it */
                            weightedLength: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/validate/subreddit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check a subreddit: does it exist, does it take posts, its posting rules and flair requirement
         * @description Read from Reddit with the Reddit account named by `accountId`, or without it your oldest connected Reddit account (Herald reads Reddit only through a connected account: 400 naming `accountId` when you have none). Answers 200 with `exists: false` and `error` for a subreddit Reddit does not have (or has banned), and `exists: true` without details for a private one. `acceptsPosts` says whether this account may post there, `rules` what a post needs (checked when a post is created), `flairRequired` whether a post needs `platformSpecificData.flairId`.
         */
        get: {
            parameters: {
                query: {
                    /** @description The Reddit account to read with (default: your oldest connected Reddit account) */
                    accountId?: string;
                    /** @description Subreddit name, with or without r/ */
                    name: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The account may submit posts there */
                            acceptsPosts: boolean;
                            /** @description Why the subreddit cannot be used, when it cannot */
                            error?: string;
                            exists: boolean;
                            /** @description Posts need a flair (platformSpecificData.flairId) */
                            flairRequired: boolean;
                            /** @description The posting rules Herald checks posts against; null when Reddit cannot be read in time or there is no subreddit */
                            rules: {
                                allowGalleries?: boolean;
                                allowImages?: boolean;
                                bodyMaxLength?: number;
                                bodyMinLength?: number;
                                bodyPolicy?: "required" | "notAllowed" | "none";
                                flairRequired?: boolean;
                                submissionType?: "any" | "self" | "link";
                                titleMaxLength?: number;
                                titleMinLength?: number;
                            } | null;
                            subreddit?: {
                                allowImages: boolean;
                                allowVideos: boolean;
                                /** @description The public description */
                                description: string;
                                isNSFW: boolean;
                                /** @description As Reddit spells it, without r/ */
                                name: string;
                                /** @description Text posts (self), links, or any */
                                submissionType: "any" | "self" | "link";
                                subscribers: number | null;
                                title: string;
                                /** @description public, private or restricted (only approved users post); Reddit's other types as given */
                                type: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Plan, limits and usage in the current billing period */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            billingPeriod: "monthly" | "yearly";
                            canCreateProfile: boolean;
                            canUpload: boolean;
                            limits: {
                                /** @description -1 = unlimited */
                                profiles: number;
                                /** @description -1 = unlimited */
                                uploads: number;
                            };
                            planName: string;
                            /** Format: date-time */
                            signupDate: string;
                            usage: {
                                /** Format: date-time */
                                lastReset: string;
                                profiles: number;
                                uploads: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the users of your team */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            currentUserId: string;
                            users: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                isRoot: boolean;
                                lastLoginAt: string | null;
                                name: string;
                                /** @description ["all"] or the ids of the profiles the user may see */
                                profileAccess: string[];
                                role: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user (yourself or a team member) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                isRoot: boolean;
                                lastLoginAt: string | null;
                                name: string;
                                /** @description ["all"] or the ids of the profiles the user may see */
                                profileAccess: string[];
                                role: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Change a team member's profile access (account owner only)
         * @description Same body as a team invite: `scope` "all", or "profiles" with `profileIds`. Takes effect on the member's next request.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Required when scope is "profiles"; every profile must be yours */
                        profileIds?: string[];
                        /** @description "all" profiles, or only "profiles" listed in profileIds */
                        scope: "all" | "profiles";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            user: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                email: string;
                                isRoot: boolean;
                                lastLoginAt: string | null;
                                name: string;
                                /** @description ["all"] or the ids of the profiles the user may see */
                                profileAccess: string[];
                                role: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        /** Remove a team member (account owner only); their sessions end at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Object id (24 hex characters) */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video-clips/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List clip jobs, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 20, at most 100 (larger values are clamped) */
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            jobs: {
                                clips: {
                                    cleanUrl: string | null;
                                    /** @description Seconds */
                                    duration: number;
                                    /** @description Seconds into the source */
                                    end_time: number;
                                    /**
                                     * Format: date-time
                                     * @description Files are deleted after this unless a post uses the clip
                                     */
                                    expiresAt: string;
                                    /** @description Clip id */
                                    id: string;
                                    /** @description 1-based, in source order */
                                    index: number;
                                    /** @description Highlight score, 0 to about 1 */
                                    score: number;
                                    /** @description Seconds into the source */
                                    start_time: number;
                                    thumbnailUrl: string | null;
                                    /** @description The clip to use: the clean file with the add-on, else the watermarked one */
                                    url: string;
                                    watermarkUrl: string | null;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                error: string | null;
                                /** Format: date-time */
                                finished_at: string | null;
                                job_id: string;
                                progress: {
                                    percent: number;
                                    /** @description queued, downloading, analysing, rendering or done */
                                    stage: string;
                                };
                                source_duration: number | null;
                                status: "processing" | "completed" | "failed";
                                total_clips: number;
                                video_file_name: string;
                                /** @description Whether the clips carry the free tier watermark */
                                watermark: boolean;
                            }[];
                            pagination: {
                                limit: number;
                                page: number;
                                pages: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video-clips/monthly-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Videos used and left this month */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            canCreate: boolean;
                            /** @description Videos submitted this calendar month (UTC); failed jobs do not count */
                            current: number;
                            hasAddon: boolean;
                            limit: number;
                            message: string;
                            remaining: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video-clips/process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a video for AI clipping
         * @description Answers at once; the clips are rendered in the background (poll GET /v1/video-clips/status/{jobId}). 403 when the month's allowance is used up.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Name shown for the job (default: the last part of the URL path) */
                        video_file_name?: string;
                        /** @description HTTPS URL of the video, or the URL of a video uploaded to Herald (POST /v1/media) */
                        video_url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job_id: string;
                            message: string;
                            /** @description `processing` */
                            status: string;
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/video-clips/status/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status, progress and clips of a job */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Job id */
                    jobId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            clips: {
                                cleanUrl: string | null;
                                /** @description Seconds */
                                duration: number;
                                /** @description Seconds into the source */
                                end_time: number;
                                /**
                                 * Format: date-time
                                 * @description Files are deleted after this unless a post uses the clip
                                 */
                                expiresAt: string;
                                /** @description Clip id */
                                id: string;
                                /** @description 1-based, in source order */
                                index: number;
                                /** @description Highlight score, 0 to about 1 */
                                score: number;
                                /** @description Seconds into the source */
                                start_time: number;
                                thumbnailUrl: string | null;
                                /** @description The clip to use: the clean file with the add-on, else the watermarked one */
                                url: string;
                                watermarkUrl: string | null;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            error: string | null;
                            /** Format: date-time */
                            finished_at: string | null;
                            job_id: string;
                            progress: {
                                percent: number;
                                /** @description queued, downloading, analysing, rendering or done */
                                stage: string;
                            };
                            source_duration: number | null;
                            status: "processing" | "completed" | "failed";
                            total_clips: number;
                            video_file_name: string;
                            /** @description Whether the clips carry the free tier watermark */
                            watermark: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery logs (kept 30 days)
         * @description One entry per attempt, newest first.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Event name */
                    event?: "post.scheduled" | "post.published" | "post.failed" | "post.partial" | "post.cancelled" | "post.platform.published" | "post.platform.failed" | "account.connected" | "account.disconnected" | "webhook.test" | "post.platform.duplicate" | "post.submitted" | "post.approved" | "post.changes_requested" | "post.commented" | "post.recycled";
                    /** @description Only this event */
                    eventId?: string;
                    limit?: number;
                    skip?: number;
                    status?: "success" | "failed";
                    /** @description Only this webhook */
                    webhookId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            logs: {
                                _id: string;
                                attemptNumber: number;
                                /** Format: date-time */
                                createdAt: string;
                                errorMessage: string | null;
                                event: string;
                                /** @description Stable event id (payload `id`, X-Herald-Event-Id), shared by every attempt */
                                eventId: string;
                                requestPayload: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description First 10 KB of the answer */
                                responseBody: string | null;
                                /** @description ms */
                                responseTime: number;
                                status: "success" | "failed";
                                statusCode: number | null;
                                url: string;
                                /** @description The tenant (root user) the webhook belongs to */
                                userId: string;
                                webhookId: string;
                                webhookName: string;
                            }[];
                            pagination: {
                                hasMore: boolean;
                                limit: number;
                                pages: number;
                                skip: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/logs/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver an event
         * @description Queues the event again for the webhook, with the same event id and payload and a fresh retry budget.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description Stable event id to send again
                         */
                        eventId: string;
                        /** @description Webhook that delivered the event */
                        webhookId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Deliveries are POSTs signed with HMAC-SHA256 over `<X-Herald-Timestamp>.<body>` (header X-Herald-Signature: sha256=<hex>); see the Webhooks guide.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhooks: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                customHeaders: {
                                    [key: string]: string;
                                };
                                /**
                                 * Format: date-time
                                 * @description When Herald disabled the webhook after failing for days
                                 */
                                disabledAt: string | null;
                                disabledReason: string | null;
                                events: string[];
                                /**
                                 * Format: date-time
                                 * @description First failure since the last success
                                 */
                                failingSince: string | null;
                                /** @description Deliveries that ended failed since the last success */
                                failureCount: number;
                                isActive: boolean;
                                /**
                                 * Format: date-time
                                 * @description Last successful delivery
                                 */
                                lastFiredAt: string | null;
                                name: string;
                                /** @description HMAC-SHA256 key: verify X-Herald-Signature with it */
                                secret: string;
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Update a webhook
         * @description Fields left out stay as they are.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Alias of webhookId */
                        _id?: string;
                        /** @description Extra request headers: names are RFC 7230 tokens (letters, digits and !#$%&'*+-.^_`|~, at most 64), values have no control characters (no CR/LF); the X-Herald-* headers cannot be replaced */
                        customHeaders?: {
                            [key: string]: string;
                        };
                        /** @description Events to subscribe to (at least one) */
                        events?: ("post.scheduled" | "post.published" | "post.failed" | "post.partial" | "post.cancelled" | "post.platform.published" | "post.platform.failed" | "account.connected" | "account.disconnected" | "webhook.test" | "post.platform.duplicate" | "post.submitted" | "post.approved" | "post.changes_requested" | "post.commented" | "post.recycled")[];
                        /** @description Turning a disabled webhook on clears its failure state */
                        isActive?: boolean;
                        /** @description Webhook name (1-50 characters) */
                        name?: string;
                        /** @description HMAC-SHA256 key (generated when omitted) */
                        secret?: string;
                        /** @description Endpoint URL (http or https; public addresses only) */
                        url?: string;
                        /** @description Webhook to update */
                        webhookId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            webhook: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                customHeaders: {
                                    [key: string]: string;
                                };
                                /**
                                 * Format: date-time
                                 * @description When Herald disabled the webhook after failing for days
                                 */
                                disabledAt: string | null;
                                disabledReason: string | null;
                                events: string[];
                                /**
                                 * Format: date-time
                                 * @description First failure since the last success
                                 */
                                failingSince: string | null;
                                /** @description Deliveries that ended failed since the last success */
                                failureCount: number;
                                isActive: boolean;
                                /**
                                 * Format: date-time
                                 * @description Last successful delivery
                                 */
                                lastFiredAt: string | null;
                                name: string;
                                /** @description HMAC-SHA256 key: verify X-Herald-Signature with it */
                                secret: string;
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /**
         * Create a webhook
         * @description Several webhooks per user (up to 50). The URL must be public (no loopback, private or link-local address). Deliveries are POSTs signed with HMAC-SHA256 over `<X-Herald-Timestamp>.<body>` (header X-Herald-Signature: sha256=<hex>); see the Webhooks guide.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Extra request headers: names are RFC 7230 tokens (letters, digits and !#$%&'*+-.^_`|~, at most 64), values have no control characters (no CR/LF); the X-Herald-* headers cannot be replaced */
                        customHeaders?: {
                            [key: string]: string;
                        };
                        /** @description Events to subscribe to (at least one) */
                        events: ("post.scheduled" | "post.published" | "post.failed" | "post.partial" | "post.cancelled" | "post.platform.published" | "post.platform.failed" | "account.connected" | "account.disconnected" | "webhook.test" | "post.platform.duplicate" | "post.submitted" | "post.approved" | "post.changes_requested" | "post.commented" | "post.recycled")[];
                        /** @description Defaults to true */
                        isActive?: boolean;
                        /** @description Webhook name (1-50 characters; default: the URL's host) */
                        name?: string;
                        /** @description HMAC-SHA256 key (generated when omitted) */
                        secret?: string;
                        /** @description Endpoint URL (http or https; public addresses only) */
                        url: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            webhook: {
                                _id: string;
                                /** Format: date-time */
                                createdAt: string;
                                customHeaders: {
                                    [key: string]: string;
                                };
                                /**
                                 * Format: date-time
                                 * @description When Herald disabled the webhook after failing for days
                                 */
                                disabledAt: string | null;
                                disabledReason: string | null;
                                events: string[];
                                /**
                                 * Format: date-time
                                 * @description First failure since the last success
                                 */
                                failingSince: string | null;
                                /** @description Deliveries that ended failed since the last success */
                                failureCount: number;
                                isActive: boolean;
                                /**
                                 * Format: date-time
                                 * @description Last successful delivery
                                 */
                                lastFiredAt: string | null;
                                name: string;
                                /** @description HMAC-SHA256 key: verify X-Herald-Signature with it */
                                secret: string;
                                /** Format: date-time */
                                updatedAt: string;
                                url: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        /** Delete a webhook */
        delete: {
            parameters: {
                query?: {
                    /** @description Alias of webhookId */
                    id?: string;
                    /** @description Webhook to delete */
                    webhookId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Sends a `webhook.test` event once, now, and reports the answer (logged like any delivery).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Webhook to test */
                        webhookId: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            eventId: string;
                            message: string;
                            statusCode: number | null;
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorResponse: {
            /** @description Machine code, e.g. VALIDATION_ERROR, NOT_FOUND, UNAUTHORIZED */
            code: string;
            details?: {
                [key: string]: unknown;
            };
            /** @description Human-readable message */
            error: string;
            requestId?: string;
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
