export namespace api {
	
	export class AgentChoices {
	    agents: string[];
	    workdirs: string[];
	
	    static createFrom(source: any = {}) {
	        return new AgentChoices(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agents = source["agents"];
	        this.workdirs = source["workdirs"];
	    }
	}
	export class AgentPreview {
	    agent: string;
	    workdir: string;
	    index: string;
	    index_tokens: number;
	    index_bytes: number;
	    index_entries: number;
	    index_total: number;
	    index_truncated: boolean;
	    context?: recall.ContextResult;
	    max_tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new AgentPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.index = source["index"];
	        this.index_tokens = source["index_tokens"];
	        this.index_bytes = source["index_bytes"];
	        this.index_entries = source["index_entries"];
	        this.index_total = source["index_total"];
	        this.index_truncated = source["index_truncated"];
	        this.context = this.convertValues(source["context"], recall.ContextResult);
	        this.max_tokens = source["max_tokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AgentPreviewParams {
	    agent?: string;
	    workdir?: string;
	    query?: string;
	    max_tokens?: number;
	
	    static createFrom(source: any = {}) {
	        return new AgentPreviewParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.query = source["query"];
	        this.max_tokens = source["max_tokens"];
	    }
	}
	export class AgentsParams {
	    hours?: number;
	
	    static createFrom(source: any = {}) {
	        return new AgentsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hours = source["hours"];
	    }
	}
	export class ConnectedAgent {
	    name: string;
	    transport: string;
	    client?: string;
	    last_call?: string;
	    // Go type: time
	    last_time: any;
	    calls: number;
	
	    static createFrom(source: any = {}) {
	        return new ConnectedAgent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.client = source["client"];
	        this.last_call = source["last_call"];
	        this.last_time = this.convertValues(source["last_time"], null);
	        this.calls = source["calls"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AgentsResult {
	    agents: ConnectedAgent[];
	
	    static createFrom(source: any = {}) {
	        return new AgentsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agents = this.convertValues(source["agents"], ConnectedAgent);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AppInfo {
	    version: string;
	    home: string;
	    language: string;
	    languages: string[];
	    schema_version: number;
	    actor: string;
	    read_only: boolean;
	    repaired?: memory.Recovery;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.home = source["home"];
	        this.language = source["language"];
	        this.languages = source["languages"];
	        this.schema_version = source["schema_version"];
	        this.actor = source["actor"];
	        this.read_only = source["read_only"];
	        this.repaired = this.convertValues(source["repaired"], memory.Recovery);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AppendParams {
	    text: string;
	    agent?: string;
	
	    static createFrom(source: any = {}) {
	        return new AppendParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.agent = source["agent"];
	    }
	}
	export class BackupCreateParams {
	    to?: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupCreateParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.to = source["to"];
	    }
	}
	export class BackupListResult {
	    dir: string;
	    backups: backup.Entry[];
	    schedule: backup.Schedule;
	    next_due: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupListResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.backups = this.convertValues(source["backups"], backup.Entry);
	        this.schedule = this.convertValues(source["schedule"], backup.Schedule);
	        this.next_due = source["next_due"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BackupPathParams {
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupPathParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	    }
	}
	export class BackupPreview {
	    format: string;
	    format_version: number;
	    app_version: string;
	    schema_version: number;
	    created: string;
	    memories: number;
	    daily: number;
	    archived: number;
	    archived_daily: number;
	    trash: number;
	    snapshots: number;
	    kv_files: number;
	    other: number;
	    bytes: number;
	    file_count: number;
	    left_out_count: number;
	    left_out?: backup.LeftOut[];
	    files?: backup.File[];
	    home_diff: backup.HomeDiff;
	
	    static createFrom(source: any = {}) {
	        return new BackupPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.format = source["format"];
	        this.format_version = source["format_version"];
	        this.app_version = source["app_version"];
	        this.schema_version = source["schema_version"];
	        this.created = source["created"];
	        this.memories = source["memories"];
	        this.daily = source["daily"];
	        this.archived = source["archived"];
	        this.archived_daily = source["archived_daily"];
	        this.trash = source["trash"];
	        this.snapshots = source["snapshots"];
	        this.kv_files = source["kv_files"];
	        this.other = source["other"];
	        this.bytes = source["bytes"];
	        this.file_count = source["file_count"];
	        this.left_out_count = source["left_out_count"];
	        this.left_out = this.convertValues(source["left_out"], backup.LeftOut);
	        this.files = this.convertValues(source["files"], backup.File);
	        this.home_diff = this.convertValues(source["home_diff"], backup.HomeDiff);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BackupRestoreParams {
	    path: string;
	    home?: string;
	
	    static createFrom(source: any = {}) {
	        return new BackupRestoreParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.home = source["home"];
	    }
	}
	export class BatchParams {
	    items: memory.Item[];
	    session?: string;
	    model?: string;
	
	    static createFrom(source: any = {}) {
	        return new BatchParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.items = this.convertValues(source["items"], memory.Item);
	        this.session = source["session"];
	        this.model = source["model"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Warning {
	    code: string;
	    i18n_key: string;
	    args?: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class ItemResult {
	    index: number;
	    op: string;
	    ok: boolean;
	    code?: string;
	    i18n_key?: string;
	    args?: {[key: string]: any};
	    message?: string;
	    id?: string;
	    slug?: string;
	    path?: string;
	    version?: string;
	    applied_confidence?: string;
	    auto_downgraded: boolean;
	    warnings?: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new ItemResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.op = source["op"];
	        this.ok = source["ok"];
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.path = source["path"];
	        this.version = source["version"];
	        this.applied_confidence = source["applied_confidence"];
	        this.auto_downgraded = source["auto_downgraded"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BatchResult {
	    results: ItemResult[];
	    applied: number;
	    failed: number;
	
	    static createFrom(source: any = {}) {
	        return new BatchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.results = this.convertValues(source["results"], ItemResult);
	        this.applied = source["applied"];
	        this.failed = source["failed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CatalogParams {
	    lang: string;
	
	    static createFrom(source: any = {}) {
	        return new CatalogParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lang = source["lang"];
	    }
	}
	export class CatalogResult {
	    lang: string;
	    messages: {[key: string]: string};
	
	    static createFrom(source: any = {}) {
	        return new CatalogResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lang = source["lang"];
	        this.messages = source["messages"];
	    }
	}
	export class CleanupParams {
	    older_than: string;
	    dry_run?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CleanupParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.older_than = source["older_than"];
	        this.dry_run = source["dry_run"];
	    }
	}
	
	export class DayEntry {
	    time?: string;
	    author?: string;
	    author_kind: string;
	    text: string;
	    html: string;
	
	    static createFrom(source: any = {}) {
	        return new DayEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = source["time"];
	        this.author = source["author"];
	        this.author_kind = source["author_kind"];
	        this.text = source["text"];
	        this.html = source["html"];
	    }
	}
	export class DayHit {
	    date: string;
	    archived: boolean;
	    bytes: number;
	    by_date: boolean;
	    time?: string;
	    author?: string;
	    author_kind?: string;
	    snippet: string;
	    matches: number;
	
	    static createFrom(source: any = {}) {
	        return new DayHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.archived = source["archived"];
	        this.bytes = source["bytes"];
	        this.by_date = source["by_date"];
	        this.time = source["time"];
	        this.author = source["author"];
	        this.author_kind = source["author_kind"];
	        this.snippet = source["snippet"];
	        this.matches = source["matches"];
	    }
	}
	export class DayListParams {
	    from?: string;
	    to?: string;
	
	    static createFrom(source: any = {}) {
	        return new DayListParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	    }
	}
	export class DaySummary {
	    date: string;
	    bytes: number;
	    entries: number;
	    archived: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DaySummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.bytes = source["bytes"];
	        this.entries = source["entries"];
	        this.archived = source["archived"];
	    }
	}
	export class DayListResult {
	    days: DaySummary[];
	    today: string;
	    warn_bytes: number;
	    max_bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new DayListResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.days = this.convertValues(source["days"], DaySummary);
	        this.today = source["today"];
	        this.warn_bytes = source["warn_bytes"];
	        this.max_bytes = source["max_bytes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DayParams {
	    date?: string;
	    archived?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DayParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.archived = source["archived"];
	    }
	}
	export class DayResult {
	    date: string;
	    memory?: memory.Memory;
	    html: string;
	    entries: DayEntry[];
	    bytes: number;
	    warn_bytes: number;
	    max_bytes: number;
	    archived: boolean;
	    today: string;
	    problem?: memory.Problem;
	
	    static createFrom(source: any = {}) {
	        return new DayResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.memory = this.convertValues(source["memory"], memory.Memory);
	        this.html = source["html"];
	        this.entries = this.convertValues(source["entries"], DayEntry);
	        this.bytes = source["bytes"];
	        this.warn_bytes = source["warn_bytes"];
	        this.max_bytes = source["max_bytes"];
	        this.archived = source["archived"];
	        this.today = source["today"];
	        this.problem = this.convertValues(source["problem"], memory.Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DaySearchParams {
	    query: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new DaySearchParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.limit = source["limit"];
	    }
	}
	export class DaySearchResult {
	    days: DayHit[];
	    date?: string;
	
	    static createFrom(source: any = {}) {
	        return new DaySearchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.days = this.convertValues(source["days"], DayHit);
	        this.date = source["date"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class DeletedParams {
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new DeletedParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.limit = source["limit"];
	    }
	}
	export class DeletedResult {
	    enabled: boolean;
	    memories: history.DeletedMemory[];
	
	    static createFrom(source: any = {}) {
	        return new DeletedResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.memories = this.convertValues(source["memories"], history.DeletedMemory);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Error {
	    code: string;
	    i18n_key: string;
	    args?: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Error(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class EmbeddingStatus {
	    settings: settings.Embeddings;
	    provider: string;
	    model: string;
	    backend: string;
	    progress: vector.Progress;
	    key_set: boolean;
	    local: boolean;
	    endpoint: string;
	    error?: Error;
	
	    static createFrom(source: any = {}) {
	        return new EmbeddingStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], settings.Embeddings);
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.backend = source["backend"];
	        this.progress = this.convertValues(source["progress"], vector.Progress);
	        this.key_set = source["key_set"];
	        this.local = source["local"];
	        this.endpoint = source["endpoint"];
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class EmbeddingsTestResult {
	    ok: boolean;
	    provider: string;
	    model: string;
	    dim: number;
	    latency_ms: number;
	    error?: Error;
	
	    static createFrom(source: any = {}) {
	        return new EmbeddingsTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.dim = source["dim"];
	        this.latency_ms = source["latency_ms"];
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Empty {
	
	
	    static createFrom(source: any = {}) {
	        return new Empty(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	
	    }
	}
	
	export class ExportParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    markdown?: string;
	
	    static createFrom(source: any = {}) {
	        return new ExportParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.markdown = source["markdown"];
	    }
	}
	export class ExportProblem {
	    code: string;
	    i18n_key: string;
	    args?: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new ExportProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class ExportResult {
	    count: number;
	    daily: number;
	    kv: number;
	    jsonl: string;
	    folder?: memory.FolderExport;
	    problems?: ExportProblem[];
	
	    static createFrom(source: any = {}) {
	        return new ExportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.count = source["count"];
	        this.daily = source["daily"];
	        this.kv = source["kv"];
	        this.jsonl = source["jsonl"];
	        this.folder = this.convertValues(source["folder"], memory.FolderExport);
	        this.problems = this.convertValues(source["problems"], ExportProblem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExtractionRequestParams {
	    session_id: string;
	    agent: string;
	    workdir?: string;
	    messages: turn.Message[];
	    workspace_mutations?: turn.Mutation[];
	    wait?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExtractionRequestParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.messages = this.convertValues(source["messages"], turn.Message);
	        this.workspace_mutations = this.convertValues(source["workspace_mutations"], turn.Mutation);
	        this.wait = source["wait"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExtractionRunParams {
	    id: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtractionRunParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	    }
	}
	export class FindParams {
	    query: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    reviewed?: boolean;
	    archived?: boolean;
	    limit?: number;
	    offset?: number;
	
	    static createFrom(source: any = {}) {
	        return new FindParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.reviewed = source["reviewed"];
	        this.archived = source["archived"];
	        this.limit = source["limit"];
	        this.offset = source["offset"];
	    }
	}
	export class Summary {
	    id: string;
	    slug: string;
	    title: string;
	    scope: string;
	    workdir?: string;
	    agent?: string;
	    type: string;
	    confidence: string;
	    auto_downgraded: boolean;
	    reviewed: boolean;
	    archived: boolean;
	    tags: string[];
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    version: string;
	    snippet?: string;
	    risky?: memory.Risk;
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.confidence = source["confidence"];
	        this.auto_downgraded = source["auto_downgraded"];
	        this.reviewed = source["reviewed"];
	        this.archived = source["archived"];
	        this.tags = source["tags"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.version = source["version"];
	        this.snippet = source["snippet"];
	        this.risky = this.convertValues(source["risky"], memory.Risk);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FindResult {
	    items: Summary[];
	    total: number;
	    more: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FindResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.items = this.convertValues(source["items"], Summary);
	        this.total = source["total"];
	        this.more = source["more"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class GraphAddRelationParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    memory?: string;
	    memory_id?: string;
	    from?: string;
	    type: string;
	    to: string;
	
	    static createFrom(source: any = {}) {
	        return new GraphAddRelationParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.memory = source["memory"];
	        this.memory_id = source["memory_id"];
	        this.from = source["from"];
	        this.type = source["type"];
	        this.to = source["to"];
	    }
	}
	export class GraphDeleteRelationParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    edge_id: string;
	
	    static createFrom(source: any = {}) {
	        return new GraphDeleteRelationParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.edge_id = source["edge_id"];
	    }
	}
	export class GraphEditResult {
	    changed: graph.MemoryRef[];
	
	    static createFrom(source: any = {}) {
	        return new GraphEditResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.changed = this.convertValues(source["changed"], graph.MemoryRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class GraphEntitiesParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    query?: string;
	    types?: string[];
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new GraphEntitiesParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.query = source["query"];
	        this.types = source["types"];
	        this.limit = source["limit"];
	    }
	}
	export class GraphEntitiesResult {
	    entities: graph.Entity[];
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new GraphEntitiesResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entities = this.convertValues(source["entities"], graph.Entity);
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class GraphEntityParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    entity: string;
	
	    static createFrom(source: any = {}) {
	        return new GraphEntityParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.entity = source["entity"];
	    }
	}
	export class GraphMemoriesResult {
	    memories: graph.MemoryRef[];
	
	    static createFrom(source: any = {}) {
	        return new GraphMemoriesResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memories = this.convertValues(source["memories"], graph.MemoryRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class GraphMergeParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    into: string;
	    from: string[];
	
	    static createFrom(source: any = {}) {
	        return new GraphMergeParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.into = source["into"];
	        this.from = source["from"];
	    }
	}
	export class GraphNeighborsParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    entity: string;
	    depth?: number;
	    relation_types?: string[];
	    entity_types?: string[];
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new GraphNeighborsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.entity = source["entity"];
	        this.depth = source["depth"];
	        this.relation_types = source["relation_types"];
	        this.entity_types = source["entity_types"];
	        this.limit = source["limit"];
	    }
	}
	export class GraphPathParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    from: string;
	    to: string;
	    max_hops?: number;
	    relation_types?: string[];
	
	    static createFrom(source: any = {}) {
	        return new GraphPathParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.max_hops = source["max_hops"];
	        this.relation_types = source["relation_types"];
	    }
	}
	export class GraphRenameParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    entity: string;
	    name: string;
	
	    static createFrom(source: any = {}) {
	        return new GraphRenameParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.entity = source["entity"];
	        this.name = source["name"];
	    }
	}
	export class GraphSubgraphParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    entity?: string;
	    depth?: number;
	    limit?: number;
	    relation_types?: string[];
	    entity_types?: string[];
	
	    static createFrom(source: any = {}) {
	        return new GraphSubgraphParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.entity = source["entity"];
	        this.depth = source["depth"];
	        this.limit = source["limit"];
	        this.relation_types = source["relation_types"];
	        this.entity_types = source["entity_types"];
	    }
	}
	export class HistoryParams {
	    id: string;
	    limit?: number;
	    before_seq?: number;
	
	    static createFrom(source: any = {}) {
	        return new HistoryParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.limit = source["limit"];
	        this.before_seq = source["before_seq"];
	    }
	}
	export class HistoryResult {
	    entries: memory.AuditEntry[];
	
	    static createFrom(source: any = {}) {
	        return new HistoryResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = this.convertValues(source["entries"], memory.AuditEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryStatus {
	    enabled: boolean;
	    exists: boolean;
	    head?: string;
	    commits: number;
	    remote?: string;
	    last_commit?: string;
	    sync_minutes: number;
	
	    static createFrom(source: any = {}) {
	        return new HistoryStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.exists = source["exists"];
	        this.head = source["head"];
	        this.commits = source["commits"];
	        this.remote = source["remote"];
	        this.last_commit = source["last_commit"];
	        this.sync_minutes = source["sync_minutes"];
	    }
	}
	export class HistorySyncParams {
	    remote?: string;
	
	    static createFrom(source: any = {}) {
	        return new HistorySyncParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.remote = source["remote"];
	    }
	}
	export class ImportLineError {
	    line: number;
	    code: string;
	    i18n_key: string;
	    args?: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportLineError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class ImportParams {
	    jsonl: string;
	    keep_review?: boolean;
	    format?: string;
	    path?: string;
	    workdir?: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.jsonl = source["jsonl"];
	        this.keep_review = source["keep_review"];
	        this.format = source["format"];
	        this.path = source["path"];
	        this.workdir = source["workdir"];
	    }
	}
	export class ImportPreviewParams {
	    jsonl: string;
	    format?: string;
	    path?: string;
	    workdir?: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportPreviewParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.jsonl = source["jsonl"];
	        this.format = source["format"];
	        this.path = source["path"];
	        this.workdir = source["workdir"];
	    }
	}
	export class ImportPreviewResult {
	    lines: number;
	    new: number;
	    duplicates: number;
	    conflicts: number;
	    repeated: number;
	    daily: number;
	    kv: number;
	    kv_unchanged: number;
	    kv_conflicts: number;
	    invalid: number;
	    over_quota: number;
	    scopes: memory.ImportScopeImpact[];
	    conflict_lines: memory.ImportConflict[];
	    repeat_lines: memory.ImportConflict[];
	    errors: ImportLineError[];
	
	    static createFrom(source: any = {}) {
	        return new ImportPreviewResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lines = source["lines"];
	        this.new = source["new"];
	        this.duplicates = source["duplicates"];
	        this.conflicts = source["conflicts"];
	        this.repeated = source["repeated"];
	        this.daily = source["daily"];
	        this.kv = source["kv"];
	        this.kv_unchanged = source["kv_unchanged"];
	        this.kv_conflicts = source["kv_conflicts"];
	        this.invalid = source["invalid"];
	        this.over_quota = source["over_quota"];
	        this.scopes = this.convertValues(source["scopes"], memory.ImportScopeImpact);
	        this.conflict_lines = this.convertValues(source["conflict_lines"], memory.ImportConflict);
	        this.repeat_lines = this.convertValues(source["repeat_lines"], memory.ImportConflict);
	        this.errors = this.convertValues(source["errors"], ImportLineError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportResult {
	    lines: number;
	    imported: number;
	    daily: number;
	    duplicates: number;
	    conflicts: number;
	    repeated: number;
	    conflict_lines: memory.ImportConflict[];
	    repeat_lines: memory.ImportConflict[];
	    kv: number;
	    kv_unchanged: number;
	    kv_conflicts: number;
	    errors: ImportLineError[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.lines = source["lines"];
	        this.imported = source["imported"];
	        this.daily = source["daily"];
	        this.duplicates = source["duplicates"];
	        this.conflicts = source["conflicts"];
	        this.repeated = source["repeated"];
	        this.conflict_lines = this.convertValues(source["conflict_lines"], memory.ImportConflict);
	        this.repeat_lines = this.convertValues(source["repeat_lines"], memory.ImportConflict);
	        this.kv = source["kv"];
	        this.kv_unchanged = source["kv_unchanged"];
	        this.kv_conflicts = source["kv_conflicts"];
	        this.errors = this.convertValues(source["errors"], ImportLineError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class KVDeleteResult {
	    agent: string;
	    key: string;
	    deleted: boolean;
	
	    static createFrom(source: any = {}) {
	        return new KVDeleteResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.key = source["key"];
	        this.deleted = source["deleted"];
	    }
	}
	export class KVEntry {
	    key: string;
	    value: number[];
	
	    static createFrom(source: any = {}) {
	        return new KVEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	    }
	}
	export class KVGetResult {
	    agent: string;
	    key: string;
	    value: number[];
	
	    static createFrom(source: any = {}) {
	        return new KVGetResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.key = source["key"];
	        this.value = source["value"];
	    }
	}
	export class KVKeyParams {
	    agent: string;
	    key: string;
	
	    static createFrom(source: any = {}) {
	        return new KVKeyParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.key = source["key"];
	    }
	}
	export class KVListParams {
	    agent: string;
	    prefix?: string;
	    cursor?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new KVListParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.prefix = source["prefix"];
	        this.cursor = source["cursor"];
	        this.limit = source["limit"];
	    }
	}
	export class KVListResult {
	    agent: string;
	    prefix: string;
	    entries: KVEntry[];
	    total: number;
	    next_cursor?: string;
	
	    static createFrom(source: any = {}) {
	        return new KVListResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.prefix = source["prefix"];
	        this.entries = this.convertValues(source["entries"], KVEntry);
	        this.total = source["total"];
	        this.next_cursor = source["next_cursor"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class KVSetParams {
	    agent: string;
	    key: string;
	    value: number[];
	
	    static createFrom(source: any = {}) {
	        return new KVSetParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.key = source["key"];
	        this.value = source["value"];
	    }
	}
	export class KVSetResult {
	    agent: string;
	    key: string;
	    created: boolean;
	    changed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new KVSetResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.key = source["key"];
	        this.created = source["created"];
	        this.changed = source["changed"];
	    }
	}
	export class LLMStatus {
	    configured: boolean;
	    provider: string;
	    base_url: string;
	    model: string;
	    streaming: boolean;
	    key_set: boolean;
	    local: boolean;
	    error?: Error;
	
	    static createFrom(source: any = {}) {
	        return new LLMStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.configured = source["configured"];
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.streaming = source["streaming"];
	        this.key_set = source["key_set"];
	        this.local = source["local"];
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LLMTestResult {
	    ok: boolean;
	    provider: string;
	    model: string;
	    latency_ms: number;
	    reply?: string;
	    error?: Error;
	
	    static createFrom(source: any = {}) {
	        return new LLMTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.latency_ms = source["latency_ms"];
	        this.reply = source["reply"];
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ListParams {
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    reviewed?: boolean;
	    archived?: boolean;
	    limit?: number;
	    offset?: number;
	    order?: string;
	
	    static createFrom(source: any = {}) {
	        return new ListParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.reviewed = source["reviewed"];
	        this.archived = source["archived"];
	        this.limit = source["limit"];
	        this.offset = source["offset"];
	        this.order = source["order"];
	    }
	}
	export class ListResult {
	    items: Summary[];
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new ListResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.items = this.convertValues(source["items"], Summary);
	        this.total = source["total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OpenFolderResult {
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new OpenFolderResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	    }
	}
	export class ProblemsResult {
	    problems: memory.Problem[];
	
	    static createFrom(source: any = {}) {
	        return new ProblemsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.problems = this.convertValues(source["problems"], memory.Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProjectInfo {
	    workdir: string;
	    kind: string;
	    identity: string;
	    key: string;
	    path_key: string;
	    problem?: string;
	    untrusted_id?: string;
	    id_holders?: string[];
	    memories: number;
	    path_key_memories: number;
	    recorded_workdir?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProjectInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workdir = source["workdir"];
	        this.kind = source["kind"];
	        this.identity = source["identity"];
	        this.key = source["key"];
	        this.path_key = source["path_key"];
	        this.problem = source["problem"];
	        this.untrusted_id = source["untrusted_id"];
	        this.id_holders = source["id_holders"];
	        this.memories = source["memories"];
	        this.path_key_memories = source["path_key_memories"];
	        this.recorded_workdir = source["recorded_workdir"];
	    }
	}
	export class ProjectParams {
	    workdir: string;
	    trust?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProjectParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.workdir = source["workdir"];
	        this.trust = source["trust"];
	    }
	}
	export class ReadResult {
	    memory?: memory.Memory;
	    html: string;
	    version: string;
	    risky?: memory.Risk;
	
	    static createFrom(source: any = {}) {
	        return new ReadResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memory = this.convertValues(source["memory"], memory.Memory);
	        this.html = source["html"];
	        this.version = source["version"];
	        this.risky = this.convertValues(source["risky"], memory.Risk);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RefParams {
	    id?: string;
	    slug?: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    expected_version?: string;
	
	    static createFrom(source: any = {}) {
	        return new RefParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.expected_version = source["expected_version"];
	    }
	}
	export class RejectParams {
	    id?: string;
	    slug?: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    expected_version?: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new RejectParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.expected_version = source["expected_version"];
	        this.reason = source["reason"];
	    }
	}
	export class RemoteClient {
	    id: number;
	    remote_addr: string;
	    user_agent: string;
	    // Go type: time
	    connected_at: any;
	    requests: number;
	
	    static createFrom(source: any = {}) {
	        return new RemoteClient(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.remote_addr = source["remote_addr"];
	        this.user_agent = source["user_agent"];
	        this.connected_at = this.convertValues(source["connected_at"], null);
	        this.requests = source["requests"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RemoteStatus {
	    enabled: boolean;
	    serve_mode: boolean;
	    running: boolean;
	    addr: string;
	    url: string;
	    token?: string;
	    clients: RemoteClient[];
	    error?: Error;
	
	    static createFrom(source: any = {}) {
	        return new RemoteStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.serve_mode = source["serve_mode"];
	        this.running = source["running"];
	        this.addr = source["addr"];
	        this.url = source["url"];
	        this.token = source["token"];
	        this.clients = this.convertValues(source["clients"], RemoteClient);
	        this.error = this.convertValues(source["error"], Error);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RestoreVersionParams {
	    id?: string;
	    path?: string;
	    commit: string;
	
	    static createFrom(source: any = {}) {
	        return new RestoreVersionParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.path = source["path"];
	        this.commit = source["commit"];
	    }
	}
	export class SearchHit {
	    memory: Summary;
	    score: number;
	    snippet: string;
	    via: string[];
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memory = this.convertValues(source["memory"], Summary);
	        this.score = source["score"];
	        this.snippet = source["snippet"];
	        this.via = source["via"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchParams {
	    query: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.limit = source["limit"];
	    }
	}
	export class SearchResult {
	    hits: SearchHit[];
	
	    static createFrom(source: any = {}) {
	        return new SearchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hits = this.convertValues(source["hits"], SearchHit);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionDeleted {
	    id: string;
	    agent: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionDeleted(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	    }
	}
	export class SessionDetail {
	    session: memory.Session;
	    turns: memory.SessionTurn[];
	
	    static createFrom(source: any = {}) {
	        return new SessionDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], memory.Session);
	        this.turns = this.convertValues(source["turns"], memory.SessionTurn);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionList {
	    sessions: memory.Session[];
	
	    static createFrom(source: any = {}) {
	        return new SessionList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessions = this.convertValues(source["sessions"], memory.Session);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionListParams {
	    agent?: string;
	    workdir?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionListParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.limit = source["limit"];
	    }
	}
	export class SessionRef {
	    id: string;
	    agent?: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.agent = source["agent"];
	    }
	}
	export class SetEmbeddingsKeyParams {
	    key?: string;
	    clear?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SetEmbeddingsKeyParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.clear = source["clear"];
	    }
	}
	export class SetKeyParams {
	    key?: string;
	    clear?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SetKeyParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.clear = source["clear"];
	    }
	}
	export class Snippets {
	    binary: string;
	    claude_code: string;
	    cursor: string;
	    stdio: string;
	    http: string;
	    http_url: string;
	    token_file: string;
	    hook: string;
	    codex: string;
	    gemini: string;
	
	    static createFrom(source: any = {}) {
	        return new Snippets(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.binary = source["binary"];
	        this.claude_code = source["claude_code"];
	        this.cursor = source["cursor"];
	        this.stdio = source["stdio"];
	        this.http = source["http"];
	        this.http_url = source["http_url"];
	        this.token_file = source["token_file"];
	        this.hook = source["hook"];
	        this.codex = source["codex"];
	        this.gemini = source["gemini"];
	    }
	}
	export class StorageHistoryParams {
	    days?: number;
	
	    static createFrom(source: any = {}) {
	        return new StorageHistoryParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.days = source["days"];
	    }
	}
	export class StorageHistoryResult {
	    samples: memory.StorageSample[];
	
	    static createFrom(source: any = {}) {
	        return new StorageHistoryResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.samples = this.convertValues(source["samples"], memory.StorageSample);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolParams {
	    read_write?: boolean;
	    session?: string;
	    model?: string;
	    workdir?: string;
	    agent?: string;
	    args: number[];
	
	    static createFrom(source: any = {}) {
	        return new ToolParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.read_write = source["read_write"];
	        this.session = source["session"];
	        this.model = source["model"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.args = source["args"];
	    }
	}
	export class ToolsParams {
	    read_write?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.read_write = source["read_write"];
	    }
	}
	export class ToolsResult {
	    tools: recall.ToolDef[];
	
	    static createFrom(source: any = {}) {
	        return new ToolsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tools = this.convertValues(source["tools"], recall.ToolDef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UpdateParams {
	    id: string;
	    expected_version?: string;
	    mode?: string;
	    title?: string;
	    body?: string;
	    type?: string;
	    new_slug?: string;
	    confidence?: string;
	    source_quote?: string;
	    reasoning?: string;
	    aliases?: string[];
	    tags?: string[];
	
	    static createFrom(source: any = {}) {
	        return new UpdateParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.expected_version = source["expected_version"];
	        this.mode = source["mode"];
	        this.title = source["title"];
	        this.body = source["body"];
	        this.type = source["type"];
	        this.new_slug = source["new_slug"];
	        this.confidence = source["confidence"];
	        this.source_quote = source["source_quote"];
	        this.reasoning = source["reasoning"];
	        this.aliases = source["aliases"];
	        this.tags = source["tags"];
	    }
	}
	export class UsageParams {
	    days?: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.days = source["days"];
	    }
	}
	export class VersionsParams {
	    id?: string;
	    path?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new VersionsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.path = source["path"];
	        this.limit = source["limit"];
	    }
	}
	export class VersionsResult {
	    enabled: boolean;
	    path: string;
	    versions: history.Version[];
	
	    static createFrom(source: any = {}) {
	        return new VersionsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.path = source["path"];
	        this.versions = this.convertValues(source["versions"], history.Version);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class WriteParams {
	    scope: string;
	    workdir?: string;
	    agent?: string;
	    type: string;
	    slug: string;
	    title: string;
	    body: string;
	    confidence?: string;
	    source_quote?: string;
	    reasoning?: string;
	    aliases?: string[];
	    tags?: string[];
	    supersedes?: string[];
	    conflicts_with?: string[];
	
	    static createFrom(source: any = {}) {
	        return new WriteParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.body = source["body"];
	        this.confidence = source["confidence"];
	        this.source_quote = source["source_quote"];
	        this.reasoning = source["reasoning"];
	        this.aliases = source["aliases"];
	        this.tags = source["tags"];
	        this.supersedes = source["supersedes"];
	        this.conflicts_with = source["conflicts_with"];
	    }
	}

}

export namespace backup {
	
	export class Entry {
	    path: string;
	    name: string;
	    size: number;
	    modified: string;
	    scheduled: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Entry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.size = source["size"];
	        this.modified = source["modified"];
	        this.scheduled = source["scheduled"];
	    }
	}
	export class File {
	    path: string;
	    size: number;
	    sha256: string;
	
	    static createFrom(source: any = {}) {
	        return new File(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	        this.sha256 = source["sha256"];
	    }
	}
	export class HomeDiff {
	    changed?: string[];
	    changed_count: number;
	    only_here?: string[];
	    only_here_count: number;
	    only_in_backup: number;
	
	    static createFrom(source: any = {}) {
	        return new HomeDiff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.changed = source["changed"];
	        this.changed_count = source["changed_count"];
	        this.only_here = source["only_here"];
	        this.only_here_count = source["only_here_count"];
	        this.only_in_backup = source["only_in_backup"];
	    }
	}
	export class LeftOut {
	    path: string;
	    code: string;
	    target?: string;
	    detail: string;
	    detail_key: string;
	    detail_args?: {[key: string]: any};
	
	    static createFrom(source: any = {}) {
	        return new LeftOut(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.code = source["code"];
	        this.target = source["target"];
	        this.detail = source["detail"];
	        this.detail_key = source["detail_key"];
	        this.detail_args = source["detail_args"];
	    }
	}
	export class Manifest {
	    format: string;
	    format_version: number;
	    app_version: string;
	    schema_version: number;
	    created: string;
	    memories: number;
	    daily: number;
	    archived: number;
	    archived_daily: number;
	    trash: number;
	    snapshots: number;
	    kv_files: number;
	    other: number;
	    bytes: number;
	    file_count: number;
	    left_out_count: number;
	    left_out?: LeftOut[];
	    files?: File[];
	
	    static createFrom(source: any = {}) {
	        return new Manifest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.format = source["format"];
	        this.format_version = source["format_version"];
	        this.app_version = source["app_version"];
	        this.schema_version = source["schema_version"];
	        this.created = source["created"];
	        this.memories = source["memories"];
	        this.daily = source["daily"];
	        this.archived = source["archived"];
	        this.archived_daily = source["archived_daily"];
	        this.trash = source["trash"];
	        this.snapshots = source["snapshots"];
	        this.kv_files = source["kv_files"];
	        this.other = source["other"];
	        this.bytes = source["bytes"];
	        this.file_count = source["file_count"];
	        this.left_out_count = source["left_out_count"];
	        this.left_out = this.convertValues(source["left_out"], LeftOut);
	        this.files = this.convertValues(source["files"], File);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RestoreResult {
	    home: string;
	    in_place: boolean;
	    manifest: Manifest;
	    pre_backup?: string;
	    pre_left_out?: LeftOut[];
	    pre_left_out_count?: number;
	    reindex: memory.ReconcileReport;
	    index_rebuilt?: string;
	    kept_history?: boolean;
	    backup_history?: string;
	    git_config_dropped?: string[];
	
	    static createFrom(source: any = {}) {
	        return new RestoreResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.home = source["home"];
	        this.in_place = source["in_place"];
	        this.manifest = this.convertValues(source["manifest"], Manifest);
	        this.pre_backup = source["pre_backup"];
	        this.pre_left_out = this.convertValues(source["pre_left_out"], LeftOut);
	        this.pre_left_out_count = source["pre_left_out_count"];
	        this.reindex = this.convertValues(source["reindex"], memory.ReconcileReport);
	        this.index_rebuilt = source["index_rebuilt"];
	        this.kept_history = source["kept_history"];
	        this.backup_history = source["backup_history"];
	        this.git_config_dropped = source["git_config_dropped"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Result {
	    path: string;
	    size: number;
	    manifest: Manifest;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	        this.manifest = this.convertValues(source["manifest"], Manifest);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Schedule {
	    interval_hours: number;
	    keep: number;
	
	    static createFrom(source: any = {}) {
	        return new Schedule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.interval_hours = source["interval_hours"];
	        this.keep = source["keep"];
	    }
	}

}

export namespace extraction {
	
	export class Warning {
	    code: string;
	    args?: {[key: string]: any};
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class AppliedItem {
	    index: number;
	    action: string;
	    id: string;
	    slug: string;
	    scope: string;
	    type: string;
	    title: string;
	    confidence: string;
	    auto_downgraded: boolean;
	    warnings?: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new AppliedItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.action = source["action"];
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.type = source["type"];
	        this.title = source["title"];
	        this.confidence = source["confidence"];
	        this.auto_downgraded = source["auto_downgraded"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Experience {
	    memory_id: string;
	    slug: string;
	    title: string;
	    pain?: string;
	    solution?: string;
	    outcome?: string;
	    reviewed: boolean;
	    // Go type: time
	    updated: any;
	
	    static createFrom(source: any = {}) {
	        return new Experience(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memory_id = source["memory_id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.pain = source["pain"];
	        this.solution = source["solution"];
	        this.outcome = source["outcome"];
	        this.reviewed = source["reviewed"];
	        this.updated = this.convertValues(source["updated"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProfileEntry {
	    value: string;
	    memory_id: string;
	    slug: string;
	    reviewed: boolean;
	    // Go type: time
	    updated: any;
	
	    static createFrom(source: any = {}) {
	        return new ProfileEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.memory_id = source["memory_id"];
	        this.slug = source["slug"];
	        this.reviewed = source["reviewed"];
	        this.updated = this.convertValues(source["updated"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Profile {
	    role: ProfileEntry[];
	    industry: ProfileEntry[];
	    communication_style: ProfileEntry[];
	    recent_topics: ProfileEntry[];
	    pain_points: ProfileEntry[];
	    preferred_tools: ProfileEntry[];
	    about: ProfileEntry[];
	    experiences: Experience[];
	    profile_id?: string;
	
	    static createFrom(source: any = {}) {
	        return new Profile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = this.convertValues(source["role"], ProfileEntry);
	        this.industry = this.convertValues(source["industry"], ProfileEntry);
	        this.communication_style = this.convertValues(source["communication_style"], ProfileEntry);
	        this.recent_topics = this.convertValues(source["recent_topics"], ProfileEntry);
	        this.pain_points = this.convertValues(source["pain_points"], ProfileEntry);
	        this.preferred_tools = this.convertValues(source["preferred_tools"], ProfileEntry);
	        this.about = this.convertValues(source["about"], ProfileEntry);
	        this.experiences = this.convertValues(source["experiences"], Experience);
	        this.profile_id = source["profile_id"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ProfileSignal {
	    kind: string;
	    value: string;
	    quote?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProfileSignal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.value = source["value"];
	        this.quote = source["quote"];
	    }
	}
	export class RejectedItem {
	    index: number;
	    action: string;
	    slug: string;
	    scope?: string;
	    code: string;
	    args?: {[key: string]: any};
	    detail?: string;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new RejectedItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.action = source["action"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.code = source["code"];
	        this.args = source["args"];
	        this.detail = source["detail"];
	        this.message = source["message"];
	    }
	}
	export class Report {
	    version: number;
	    gate: string;
	    turn?: number;
	    candidates: number;
	    rejections: number;
	    retried?: boolean;
	    decode_error?: string;
	    plan_status?: string;
	    applied: AppliedItem[];
	    rejected: RejectedItem[];
	    profile?: ProfileSignal[];
	    error?: string;
	    error_code?: string;
	    error_args?: {[key: string]: any};
	    planned_offline?: boolean;
	    project_pin?: boolean;
	    file_evidence?: boolean;
	    covered?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.gate = source["gate"];
	        this.turn = source["turn"];
	        this.candidates = source["candidates"];
	        this.rejections = source["rejections"];
	        this.retried = source["retried"];
	        this.decode_error = source["decode_error"];
	        this.plan_status = source["plan_status"];
	        this.applied = this.convertValues(source["applied"], AppliedItem);
	        this.rejected = this.convertValues(source["rejected"], RejectedItem);
	        this.profile = this.convertValues(source["profile"], ProfileSignal);
	        this.error = source["error"];
	        this.error_code = source["error_code"];
	        this.error_args = source["error_args"];
	        this.planned_offline = source["planned_offline"];
	        this.project_pin = source["project_pin"];
	        this.file_evidence = source["file_evidence"];
	        this.covered = source["covered"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunDetail {
	    id: string;
	    session: string;
	    agent: string;
	    workdir?: string;
	    status: string;
	    reason?: string;
	    status_text?: string;
	    reason_text?: string;
	    // Go type: time
	    started_at: any;
	    // Go type: time
	    finished_at?: any;
	    model?: string;
	    input_tokens: number;
	    output_tokens: number;
	    applied: number;
	    rejected: number;
	    report: Report;
	
	    static createFrom(source: any = {}) {
	        return new RunDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session = source["session"];
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.status_text = source["status_text"];
	        this.reason_text = source["reason_text"];
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.model = source["model"];
	        this.input_tokens = source["input_tokens"];
	        this.output_tokens = source["output_tokens"];
	        this.applied = source["applied"];
	        this.rejected = source["rejected"];
	        this.report = this.convertValues(source["report"], Report);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunsParams {
	    session?: string;
	    status?: string;
	    limit?: number;
	    offset?: number;
	
	    static createFrom(source: any = {}) {
	        return new RunsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = source["session"];
	        this.status = source["status"];
	        this.limit = source["limit"];
	        this.offset = source["offset"];
	    }
	}
	export class RunsResult {
	    runs: RunDetail[];
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new RunsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runs = this.convertValues(source["runs"], RunDetail);
	        this.total = source["total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Settings {
	    enabled: boolean;
	    agents: string[];
	    min_interval_seconds: number;
	    min_graphemes: number;
	    greeting_max_graphemes: number;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.agents = source["agents"];
	        this.min_interval_seconds = source["min_interval_seconds"];
	        this.min_graphemes = source["min_graphemes"];
	        this.greeting_max_graphemes = source["greeting_max_graphemes"];
	    }
	}
	export class SettingsPatch {
	    enabled?: boolean;
	    agents?: string[];
	    min_interval_seconds?: number;
	    min_graphemes?: number;
	    greeting_max_graphemes?: number;
	
	    static createFrom(source: any = {}) {
	        return new SettingsPatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.agents = source["agents"];
	        this.min_interval_seconds = source["min_interval_seconds"];
	        this.min_graphemes = source["min_graphemes"];
	        this.greeting_max_graphemes = source["greeting_max_graphemes"];
	    }
	}

}

export namespace format {
	
	export class Source {
	    kind?: string;
	    agent?: string;
	    session?: string;
	    turn?: number;
	    model?: string;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.agent = source["agent"];
	        this.session = source["session"];
	        this.turn = source["turn"];
	        this.model = source["model"];
	    }
	}

}

export namespace graph {
	
	export class MemoryRef {
	    id: string;
	    slug: string;
	    title: string;
	    scope: string;
	
	    static createFrom(source: any = {}) {
	        return new MemoryRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	    }
	}
	export class Edge {
	    id: string;
	    source: string;
	    target: string;
	    type: string;
	    memories: MemoryRef[];
	
	    static createFrom(source: any = {}) {
	        return new Edge(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.source = source["source"];
	        this.target = source["target"];
	        this.type = source["type"];
	        this.memories = this.convertValues(source["memories"], MemoryRef);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Entity {
	    id: string;
	    name: string;
	    type: string;
	    aliases: string[];
	    scope: string;
	    workdir?: string;
	    agent?: string;
	    memories: number;
	    degree: number;
	
	    static createFrom(source: any = {}) {
	        return new Entity(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.aliases = source["aliases"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.memories = source["memories"];
	        this.degree = source["degree"];
	    }
	}
	export class Hop {
	    from: string;
	    to: string;
	    edge: Edge;
	
	    static createFrom(source: any = {}) {
	        return new Hop(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.edge = this.convertValues(source["edge"], Edge);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Path {
	    found: boolean;
	    nodes: Entity[];
	    hops: Hop[];
	    longer?: number;
	
	    static createFrom(source: any = {}) {
	        return new Path(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.found = source["found"];
	        this.nodes = this.convertValues(source["nodes"], Entity);
	        this.hops = this.convertValues(source["hops"], Hop);
	        this.longer = source["longer"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Subgraph {
	    nodes: Entity[];
	    edges: Edge[];
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Subgraph(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.nodes = this.convertValues(source["nodes"], Entity);
	        this.edges = this.convertValues(source["edges"], Edge);
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace history {
	
	export class Conflict {
	    path: string;
	    slug: string;
	    copy?: string;
	    copy_id?: string;
	    copy_error?: string;
	    key?: string;
	    agent?: string;
	    value?: string;
	    other?: string;
	    day?: string;
	    theirs?: string;
	    deleted?: string;
	
	    static createFrom(source: any = {}) {
	        return new Conflict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.slug = source["slug"];
	        this.copy = source["copy"];
	        this.copy_id = source["copy_id"];
	        this.copy_error = source["copy_error"];
	        this.key = source["key"];
	        this.agent = source["agent"];
	        this.value = source["value"];
	        this.other = source["other"];
	        this.day = source["day"];
	        this.theirs = source["theirs"];
	        this.deleted = source["deleted"];
	    }
	}
	export class DeletedMemory {
	    path: string;
	    id?: string;
	    slug: string;
	    title: string;
	    commit: string;
	    short: string;
	    deleted_at: string;
	    deleted_by: string;
	
	    static createFrom(source: any = {}) {
	        return new DeletedMemory(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.commit = source["commit"];
	        this.short = source["short"];
	        this.deleted_at = source["deleted_at"];
	        this.deleted_by = source["deleted_by"];
	    }
	}
	export class SyncResult {
	    remote: string;
	    fetched: boolean;
	    fast_forward: boolean;
	    merged: boolean;
	    changed: number;
	    memories: number;
	    days: number;
	    kv_files: number;
	    copies: number;
	    pushed: boolean;
	    head: string;
	    conflicts: Conflict[];
	    replaced: Conflict[];
	
	    static createFrom(source: any = {}) {
	        return new SyncResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.remote = source["remote"];
	        this.fetched = source["fetched"];
	        this.fast_forward = source["fast_forward"];
	        this.merged = source["merged"];
	        this.changed = source["changed"];
	        this.memories = source["memories"];
	        this.days = source["days"];
	        this.kv_files = source["kv_files"];
	        this.copies = source["copies"];
	        this.pushed = source["pushed"];
	        this.head = source["head"];
	        this.conflicts = this.convertValues(source["conflicts"], Conflict);
	        this.replaced = this.convertValues(source["replaced"], Conflict);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Version {
	    commit: string;
	    short: string;
	    time: string;
	    actor: string;
	    message: string;
	    diff: string;
	    added: number;
	    removed: number;
	    deleted?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Version(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.commit = source["commit"];
	        this.short = source["short"];
	        this.time = source["time"];
	        this.actor = source["actor"];
	        this.message = source["message"];
	        this.diff = source["diff"];
	        this.added = source["added"];
	        this.removed = source["removed"];
	        this.deleted = source["deleted"];
	    }
	}

}

export namespace hook {
	
	export class CodexPayload {
	    type?: string;
	    "thread-id"?: string;
	    "turn-id"?: string;
	    cwd?: string;
	    "input-messages"?: string[];
	    "last-assistant-message"?: string;
	    hook_event_name?: string;
	    session_id?: string;
	    turn_id?: string;
	    prompt?: string;
	    transcript_path?: string;
	    stop_hook_active?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CodexPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this["thread-id"] = source["thread-id"];
	        this["turn-id"] = source["turn-id"];
	        this.cwd = source["cwd"];
	        this["input-messages"] = source["input-messages"];
	        this["last-assistant-message"] = source["last-assistant-message"];
	        this.hook_event_name = source["hook_event_name"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.prompt = source["prompt"];
	        this.transcript_path = source["transcript_path"];
	        this.stop_hook_active = source["stop_hook_active"];
	    }
	}
	export class GeminiPayload {
	    session_id: string;
	    transcript_path?: string;
	    cwd?: string;
	    hook_event_name?: string;
	    timestamp?: string;
	    prompt: string;
	    prompt_response?: string;
	    stop_hook_active?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new GeminiPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.transcript_path = source["transcript_path"];
	        this.cwd = source["cwd"];
	        this.hook_event_name = source["hook_event_name"];
	        this.timestamp = source["timestamp"];
	        this.prompt = source["prompt"];
	        this.prompt_response = source["prompt_response"];
	        this.stop_hook_active = source["stop_hook_active"];
	    }
	}
	export class Payload {
	    session_id: string;
	    transcript_path: string;
	    cwd?: string;
	    hook_event_name?: string;
	    stop_hook_active?: boolean;
	    permission_mode?: string;
	
	    static createFrom(source: any = {}) {
	        return new Payload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.transcript_path = source["transcript_path"];
	        this.cwd = source["cwd"];
	        this.hook_event_name = source["hook_event_name"];
	        this.stop_hook_active = source["stop_hook_active"];
	        this.permission_mode = source["permission_mode"];
	    }
	}
	export class Result {
	    status: string;
	    messages: number;
	    person_messages: number;
	    skipped: number;
	    oversized: number;
	    partial: boolean;
	    pid?: number;
	    bridge_error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.messages = source["messages"];
	        this.person_messages = source["person_messages"];
	        this.skipped = source["skipped"];
	        this.oversized = source["oversized"];
	        this.partial = source["partial"];
	        this.pid = source["pid"];
	        this.bridge_error = source["bridge_error"];
	    }
	}

}

export namespace memory {
	
	export class AuditEntry {
	    seq: number;
	    ts: string;
	    op: string;
	    actor: string;
	    memory_id: string;
	    slug: string;
	    scope: string;
	    agent?: string;
	    workdir?: string;
	    title?: string;
	    session: string;
	    model: string;
	    result: string;
	    detail: number[];
	
	    static createFrom(source: any = {}) {
	        return new AuditEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.ts = source["ts"];
	        this.op = source["op"];
	        this.actor = source["actor"];
	        this.memory_id = source["memory_id"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.agent = source["agent"];
	        this.workdir = source["workdir"];
	        this.title = source["title"];
	        this.session = source["session"];
	        this.model = source["model"];
	        this.result = source["result"];
	        this.detail = source["detail"];
	    }
	}
	export class HeaderDisagreement {
	    path: string;
	    field: string;
	    header: string;
	    place: string;
	
	    static createFrom(source: any = {}) {
	        return new HeaderDisagreement(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.field = source["field"];
	        this.header = source["header"];
	        this.place = source["place"];
	    }
	}
	export class ChecksumPass {
	    checked: number;
	    mismatched: string[];
	    reindexed: number;
	    disagreeing?: HeaderDisagreement[];
	
	    static createFrom(source: any = {}) {
	        return new ChecksumPass(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checked = source["checked"];
	        this.mismatched = source["mismatched"];
	        this.reindexed = source["reindexed"];
	        this.disagreeing = this.convertValues(source["disagreeing"], HeaderDisagreement);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CleanupItem {
	    path: string;
	    size: number;
	    modified: string;
	
	    static createFrom(source: any = {}) {
	        return new CleanupItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	        this.modified = source["modified"];
	    }
	}
	export class CleanupReport {
	    dry_run: boolean;
	    before: string;
	    items: CleanupItem[];
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new CleanupReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dry_run = source["dry_run"];
	        this.before = source["before"];
	        this.items = this.convertValues(source["items"], CleanupItem);
	        this.bytes = source["bytes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DoctorHeadline {
	    code: string;
	    args: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new DoctorHeadline(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class Finding {
	    code: string;
	    path?: string;
	    count?: number;
	    args?: {[key: string]: any};
	    fix: string;
	    fixed: boolean;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Finding(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.path = source["path"];
	        this.count = source["count"];
	        this.args = source["args"];
	        this.fix = source["fix"];
	        this.fixed = source["fixed"];
	        this.message = source["message"];
	    }
	}
	export class StuckRuns {
	    organizer: number;
	    extraction: number;
	
	    static createFrom(source: any = {}) {
	        return new StuckRuns(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.organizer = source["organizer"];
	        this.extraction = source["extraction"];
	    }
	}
	export class Orphans {
	    vectors: number;
	    mentions: number;
	    relations: number;
	
	    static createFrom(source: any = {}) {
	        return new Orphans(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.vectors = source["vectors"];
	        this.mentions = source["mentions"];
	        this.relations = source["relations"];
	    }
	}
	export class SalvagedTable {
	    table: string;
	    salvaged: number;
	    lost: number;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new SalvagedTable(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.table = source["table"];
	        this.salvaged = source["salvaged"];
	        this.lost = source["lost"];
	        this.message = source["message"];
	    }
	}
	export class Recovery {
	    code: string;
	    at: string;
	    cause: string;
	    moved_to: string;
	    tables: SalvagedTable[];
	    rebuilt: number;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new Recovery(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.at = source["at"];
	        this.cause = source["cause"];
	        this.moved_to = source["moved_to"];
	        this.tables = this.convertValues(source["tables"], SalvagedTable);
	        this.rebuilt = source["rebuilt"];
	        this.message = source["message"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TempFiles {
	    count: number;
	    paths: string[];
	
	    static createFrom(source: any = {}) {
	        return new TempFiles(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.count = source["count"];
	        this.paths = source["paths"];
	    }
	}
	export class ScopeQuota {
	    scope: string;
	    key: string;
	    workdir?: string;
	    agent?: string;
	    used: number;
	    limit: number;
	    headroom: number;
	    level: string;
	    archived: number;
	    unreviewed: number;
	    oldest_unreviewed_days: number;
	
	    static createFrom(source: any = {}) {
	        return new ScopeQuota(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.key = source["key"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.used = source["used"];
	        this.limit = source["limit"];
	        this.headroom = source["headroom"];
	        this.level = source["level"];
	        this.archived = source["archived"];
	        this.unreviewed = source["unreviewed"];
	        this.oldest_unreviewed_days = source["oldest_unreviewed_days"];
	    }
	}
	export class QuotaSummary {
	    level: string;
	    scopes: ScopeQuota[];
	
	    static createFrom(source: any = {}) {
	        return new QuotaSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.level = source["level"];
	        this.scopes = this.convertValues(source["scopes"], ScopeQuota);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ReconcileReport {
	    scanned: number;
	    added: number;
	    updated: number;
	    removed: number;
	    unchanged: number;
	    problems: number;
	    risky_unreviewed: number;
	
	    static createFrom(source: any = {}) {
	        return new ReconcileReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scanned = source["scanned"];
	        this.added = source["added"];
	        this.updated = source["updated"];
	        this.removed = source["removed"];
	        this.unchanged = source["unchanged"];
	        this.problems = source["problems"];
	        this.risky_unreviewed = source["risky_unreviewed"];
	    }
	}
	export class Problem {
	    path: string;
	    code: string;
	    detail: string;
	    detail_key?: string;
	    detail_args?: {[key: string]: any};
	    seen_at: string;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.code = source["code"];
	        this.detail = source["detail"];
	        this.detail_key = source["detail_key"];
	        this.detail_args = source["detail_args"];
	        this.seen_at = source["seen_at"];
	    }
	}
	export class DoctorReport {
	    home: string;
	    schema_version: number;
	    memories: number;
	    journal_days: number;
	    archived: number;
	    trash_files: number;
	    problems: Problem[];
	    integrity: string;
	    fts_consistent: boolean;
	    reconcile: ReconcileReport;
	    quota: QuotaSummary;
	    checksum: ChecksumPass;
	    temp_files: TempFiles;
	    ok: boolean;
	    read_only: boolean;
	    read_only_index?: string;
	    recovery?: Recovery;
	    orphans: Orphans;
	    stuck_runs: StuckRuns;
	    findings: Finding[];
	    headline: DoctorHeadline;
	
	    static createFrom(source: any = {}) {
	        return new DoctorReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.home = source["home"];
	        this.schema_version = source["schema_version"];
	        this.memories = source["memories"];
	        this.journal_days = source["journal_days"];
	        this.archived = source["archived"];
	        this.trash_files = source["trash_files"];
	        this.problems = this.convertValues(source["problems"], Problem);
	        this.integrity = source["integrity"];
	        this.fts_consistent = source["fts_consistent"];
	        this.reconcile = this.convertValues(source["reconcile"], ReconcileReport);
	        this.quota = this.convertValues(source["quota"], QuotaSummary);
	        this.checksum = this.convertValues(source["checksum"], ChecksumPass);
	        this.temp_files = this.convertValues(source["temp_files"], TempFiles);
	        this.ok = source["ok"];
	        this.read_only = source["read_only"];
	        this.read_only_index = source["read_only_index"];
	        this.recovery = this.convertValues(source["recovery"], Recovery);
	        this.orphans = this.convertValues(source["orphans"], Orphans);
	        this.stuck_runs = this.convertValues(source["stuck_runs"], StuckRuns);
	        this.findings = this.convertValues(source["findings"], Finding);
	        this.headline = this.convertValues(source["headline"], DoctorHeadline);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FolderExport {
	    dir: string;
	    memories: number;
	    daily: number;
	    gone: number;
	
	    static createFrom(source: any = {}) {
	        return new FolderExport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.memories = source["memories"];
	        this.daily = source["daily"];
	        this.gone = source["gone"];
	    }
	}
	
	export class ImportOrigin {
	    path: string;
	    entry?: number;
	    line?: number;
	
	    static createFrom(source: any = {}) {
	        return new ImportOrigin(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.entry = source["entry"];
	        this.line = source["line"];
	    }
	}
	export class ImportConflict {
	    line: number;
	    slug: string;
	    id: string;
	    title: string;
	    scope: string;
	    first?: number;
	    from?: ImportOrigin;
	    first_from?: ImportOrigin;
	
	    static createFrom(source: any = {}) {
	        return new ImportConflict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.slug = source["slug"];
	        this.id = source["id"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	        this.first = source["first"];
	        this.from = this.convertValues(source["from"], ImportOrigin);
	        this.first_from = this.convertValues(source["first_from"], ImportOrigin);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Item {
	    op: string;
	    group_id?: string;
	    id?: string;
	    slug?: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    title?: string;
	    body?: string;
	    mode?: string;
	    new_slug?: string;
	    confidence?: string;
	    source_quote?: string;
	    reasoning?: string;
	    aliases?: string[];
	    tags?: string[];
	    supersedes?: string[];
	    conflicts_with?: string[];
	    subject?: string;
	    source?: format.Source;
	    reviewed?: boolean;
	    expected_version?: string;
	    override_reject?: boolean;
	    auto_downgraded?: boolean;
	    text?: string;
	    reason?: string;
	    // Go type: time
	    created?: any;
	    // Go type: time
	    updated?: any;
	
	    static createFrom(source: any = {}) {
	        return new Item(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.op = source["op"];
	        this.group_id = source["group_id"];
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.title = source["title"];
	        this.body = source["body"];
	        this.mode = source["mode"];
	        this.new_slug = source["new_slug"];
	        this.confidence = source["confidence"];
	        this.source_quote = source["source_quote"];
	        this.reasoning = source["reasoning"];
	        this.aliases = source["aliases"];
	        this.tags = source["tags"];
	        this.supersedes = source["supersedes"];
	        this.conflicts_with = source["conflicts_with"];
	        this.subject = source["subject"];
	        this.source = this.convertValues(source["source"], format.Source);
	        this.reviewed = source["reviewed"];
	        this.expected_version = source["expected_version"];
	        this.override_reject = source["override_reject"];
	        this.auto_downgraded = source["auto_downgraded"];
	        this.text = source["text"];
	        this.reason = source["reason"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Memory {
	    id: string;
	    slug: string;
	    title: string;
	    scope: string;
	    workdir?: string;
	    agent?: string;
	    type: string;
	    confidence: string;
	    auto_downgraded: boolean;
	    reviewed: boolean;
	    source_quote: string;
	    reasoning: string;
	    aliases: string[];
	    tags: string[];
	    supersedes: string[];
	    conflicts_with: string[];
	    subject?: string;
	    source: format.Source;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    body: string;
	    path: string;
	    version: string;
	    archived: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Memory(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.confidence = source["confidence"];
	        this.auto_downgraded = source["auto_downgraded"];
	        this.reviewed = source["reviewed"];
	        this.source_quote = source["source_quote"];
	        this.reasoning = source["reasoning"];
	        this.aliases = source["aliases"];
	        this.tags = source["tags"];
	        this.supersedes = source["supersedes"];
	        this.conflicts_with = source["conflicts_with"];
	        this.subject = source["subject"];
	        this.source = this.convertValues(source["source"], format.Source);
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.body = source["body"];
	        this.path = source["path"];
	        this.version = source["version"];
	        this.archived = source["archived"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	
	export class Risk {
	    kind: string;
	    excerpt: string;
	
	    static createFrom(source: any = {}) {
	        return new Risk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.excerpt = source["excerpt"];
	    }
	}
	
	
	export class Session {
	    agent: string;
	    id: string;
	    workdir?: string;
	    project_key?: string;
	    turns_received: number;
	    turns_kept: number;
	    // Go type: time
	    first_seen: any;
	    // Go type: time
	    last_activity: any;
	    summary?: string;
	    summarized: number;
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.agent = source["agent"];
	        this.id = source["id"];
	        this.workdir = source["workdir"];
	        this.project_key = source["project_key"];
	        this.turns_received = source["turns_received"];
	        this.turns_kept = source["turns_kept"];
	        this.first_seen = this.convertValues(source["first_seen"], null);
	        this.last_activity = this.convertValues(source["last_activity"], null);
	        this.summary = source["summary"];
	        this.summarized = source["summarized"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionTurn {
	    seq: number;
	    role: string;
	    content: string;
	    msg_id?: string;
	    // Go type: time
	    at: any;
	    cut_bytes?: number;
	    workdir?: string;
	    project_key?: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionTurn(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.msg_id = source["msg_id"];
	        this.at = this.convertValues(source["at"], null);
	        this.cut_bytes = source["cut_bytes"];
	        this.workdir = source["workdir"];
	        this.project_key = source["project_key"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StorageSample {
	    day: string;
	    at: string;
	    memories: number;
	    archived: number;
	    bytes: number;
	    index_bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new StorageSample(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.day = source["day"];
	        this.at = source["at"];
	        this.memories = source["memories"];
	        this.archived = source["archived"];
	        this.bytes = source["bytes"];
	        this.index_bytes = source["index_bytes"];
	    }
	}
	
	
	export class UsageGroup {
	    key: string;
	    calls: number;
	    input_tokens: number;
	    output_tokens: number;
	    cost_usd: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageGroup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.calls = source["calls"];
	        this.input_tokens = source["input_tokens"];
	        this.output_tokens = source["output_tokens"];
	        this.cost_usd = source["cost_usd"];
	    }
	}
	export class UsageSummary {
	    // Go type: time
	    from: any;
	    // Go type: time
	    to: any;
	    total: UsageGroup;
	    by_purpose: UsageGroup[];
	    by_model: UsageGroup[];
	    by_day: UsageGroup[];
	
	    static createFrom(source: any = {}) {
	        return new UsageSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = this.convertValues(source["from"], null);
	        this.to = this.convertValues(source["to"], null);
	        this.total = this.convertValues(source["total"], UsageGroup);
	        this.by_purpose = this.convertValues(source["by_purpose"], UsageGroup);
	        this.by_model = this.convertValues(source["by_model"], UsageGroup);
	        this.by_day = this.convertValues(source["by_day"], UsageGroup);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class VacuumReport {
	    bytes_before: number;
	    bytes_after: number;
	    orphans_removed: Orphans;
	    stuck_closed: StuckRuns;
	
	    static createFrom(source: any = {}) {
	        return new VacuumReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.bytes_before = source["bytes_before"];
	        this.bytes_after = source["bytes_after"];
	        this.orphans_removed = this.convertValues(source["orphans_removed"], Orphans);
	        this.stuck_closed = this.convertValues(source["stuck_closed"], StuckRuns);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace organizer {
	
	export class AbortParams {
	    run_id?: string;
	
	    static createFrom(source: any = {}) {
	        return new AbortParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	    }
	}
	export class ApplyParams {
	    run_id: string;
	    decision_ids: string[];
	
	    static createFrom(source: any = {}) {
	        return new ApplyParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	        this.decision_ids = source["decision_ids"];
	    }
	}
	export class DecisionOutcome {
	    id: string;
	    status: string;
	    code?: string;
	    i18n_key?: string;
	    args?: {[key: string]: any};
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new DecisionOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.status = source["status"];
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class ApplyResult {
	    run_id: string;
	    decisions: DecisionOutcome[];
	    applied: number;
	    failed: number;
	    final_count: number;
	    compression_ratio: number;
	    snapshot: string;
	
	    static createFrom(source: any = {}) {
	        return new ApplyResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	        this.decisions = this.convertValues(source["decisions"], DecisionOutcome);
	        this.applied = source["applied"];
	        this.failed = source["failed"];
	        this.final_count = source["final_count"];
	        this.compression_ratio = source["compression_ratio"];
	        this.snapshot = source["snapshot"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunError {
	    code: string;
	    args?: {[key: string]: any};
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new RunError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	        this.message = source["message"];
	    }
	}
	export class ClusterReport {
	    id: string;
	    key: string;
	    topic?: string;
	    scope: string;
	    scope_key: string;
	    size: number;
	    entry_ids: string[];
	    planner?: string;
	    status: string;
	    error?: RunError;
	
	    static createFrom(source: any = {}) {
	        return new ClusterReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.key = source["key"];
	        this.topic = source["topic"];
	        this.scope = source["scope"];
	        this.scope_key = source["scope_key"];
	        this.size = source["size"];
	        this.entry_ids = source["entry_ids"];
	        this.planner = source["planner"];
	        this.status = source["status"];
	        this.error = this.convertValues(source["error"], RunError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Counts {
	    scanned: number;
	    scopes: number;
	    clusters: number;
	    clusters_failed: number;
	    clusters_fallback?: number;
	    decisions: number;
	    keep: number;
	    merge_into: number;
	    delete: number;
	    mark_review: number;
	    rewrite_hint: number;
	    auto: number;
	    queued: number;
	    dropped: number;
	    applied: number;
	    failed: number;
	    removed: number;
	
	    static createFrom(source: any = {}) {
	        return new Counts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scanned = source["scanned"];
	        this.scopes = source["scopes"];
	        this.clusters = source["clusters"];
	        this.clusters_failed = source["clusters_failed"];
	        this.clusters_fallback = source["clusters_fallback"];
	        this.decisions = source["decisions"];
	        this.keep = source["keep"];
	        this.merge_into = source["merge_into"];
	        this.delete = source["delete"];
	        this.mark_review = source["mark_review"];
	        this.rewrite_hint = source["rewrite_hint"];
	        this.auto = source["auto"];
	        this.queued = source["queued"];
	        this.dropped = source["dropped"];
	        this.applied = source["applied"];
	        this.failed = source["failed"];
	        this.removed = source["removed"];
	    }
	}
	export class DecisionResult {
	    code?: string;
	    i18n_key?: string;
	    args?: {[key: string]: any};
	    message?: string;
	    // Go type: time
	    at: any;
	    by: string;
	    removed: number;
	    versions?: {[key: string]: string};
	
	    static createFrom(source: any = {}) {
	        return new DecisionResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.i18n_key = source["i18n_key"];
	        this.args = source["args"];
	        this.message = source["message"];
	        this.at = this.convertValues(source["at"], null);
	        this.by = source["by"];
	        this.removed = source["removed"];
	        this.versions = source["versions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Preserved {
	    body: string;
	    aliases: string[];
	    tags: string[];
	    supersedes: string[];
	    source_quote: string;
	    confidence: string;
	    unreview?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Preserved(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.body = source["body"];
	        this.aliases = source["aliases"];
	        this.tags = source["tags"];
	        this.supersedes = source["supersedes"];
	        this.source_quote = source["source_quote"];
	        this.confidence = source["confidence"];
	        this.unreview = source["unreview"];
	    }
	}
	export class Reason {
	    code: string;
	    args?: {[key: string]: any};
	    text?: string;
	
	    static createFrom(source: any = {}) {
	        return new Reason(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	        this.text = source["text"];
	    }
	}
	export class EntryRef {
	    id: string;
	    slug: string;
	    title: string;
	    scope: string;
	    scope_key: string;
	    workdir?: string;
	    agent?: string;
	    type: string;
	    path: string;
	    version: string;
	    reviewed: boolean;
	    confidence: string;
	
	    static createFrom(source: any = {}) {
	        return new EntryRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	        this.scope_key = source["scope_key"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.path = source["path"];
	        this.version = source["version"];
	        this.reviewed = source["reviewed"];
	        this.confidence = source["confidence"];
	    }
	}
	export class Decision {
	    id: string;
	    cluster_id: string;
	    action: string;
	    targets: EntryRef[];
	    into?: EntryRef;
	    confidence: number;
	    risk: string;
	    tier?: string;
	    score?: number;
	    reason: Reason;
	    hint?: string;
	    evidence?: string[];
	    preserved?: Preserved;
	    outcome: string;
	    bucket?: string;
	    status: string;
	    result?: DecisionResult;
	
	    static createFrom(source: any = {}) {
	        return new Decision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.cluster_id = source["cluster_id"];
	        this.action = source["action"];
	        this.targets = this.convertValues(source["targets"], EntryRef);
	        this.into = this.convertValues(source["into"], EntryRef);
	        this.confidence = source["confidence"];
	        this.risk = source["risk"];
	        this.tier = source["tier"];
	        this.score = source["score"];
	        this.reason = this.convertValues(source["reason"], Reason);
	        this.hint = source["hint"];
	        this.evidence = source["evidence"];
	        this.preserved = this.convertValues(source["preserved"], Preserved);
	        this.outcome = source["outcome"];
	        this.bucket = source["bucket"];
	        this.status = source["status"];
	        this.result = this.convertValues(source["result"], DecisionResult);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	export class Progress {
	    run_id: string;
	    phase: string;
	    status: string;
	    done: number;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new Progress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	        this.phase = source["phase"];
	        this.status = source["status"];
	        this.done = source["done"];
	        this.total = source["total"];
	    }
	}
	
	export class UndoRecord {
	    // Go type: time
	    at: any;
	    by: string;
	    decisions: string[];
	    conflicts: number;
	    restored: number;
	    reverted: number;
	
	    static createFrom(source: any = {}) {
	        return new UndoRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.at = this.convertValues(source["at"], null);
	        this.by = source["by"];
	        this.decisions = source["decisions"];
	        this.conflicts = source["conflicts"];
	        this.restored = source["restored"];
	        this.reverted = source["reverted"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScopeScan {
	    scope: string;
	    key: string;
	    workdir?: string;
	    agent?: string;
	    count: number;
	    used: number;
	    limit: number;
	    headroom: number;
	    level: string;
	    target: number;
	    over_target: number;
	
	    static createFrom(source: any = {}) {
	        return new ScopeScan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.key = source["key"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.count = source["count"];
	        this.used = source["used"];
	        this.limit = source["limit"];
	        this.headroom = source["headroom"];
	        this.level = source["level"];
	        this.target = source["target"];
	        this.over_target = source["over_target"];
	    }
	}
	export class Usage {
	    input_tokens: number;
	    output_tokens: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input_tokens = source["input_tokens"];
	        this.output_tokens = source["output_tokens"];
	    }
	}
	export class ScopeClustering {
	    scope: string;
	    key: string;
	    clusterer: string;
	    topics: number;
	    unknown_ids: number;
	    repeated_ids: number;
	    left_out: number;
	    fallback?: RunError;
	
	    static createFrom(source: any = {}) {
	        return new ScopeClustering(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.key = source["key"];
	        this.clusterer = source["clusterer"];
	        this.topics = source["topics"];
	        this.unknown_ids = source["unknown_ids"];
	        this.repeated_ids = source["repeated_ids"];
	        this.left_out = source["left_out"];
	        this.fallback = this.convertValues(source["fallback"], RunError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScopeInstance {
	    scope: string;
	    key: string;
	    workdir?: string;
	    agent?: string;
	
	    static createFrom(source: any = {}) {
	        return new ScopeInstance(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.key = source["key"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	    }
	}
	export class Report {
	    version: number;
	    run_id: string;
	    trigger: string;
	    mode: string;
	    scope_filter?: ScopeInstance;
	    clusterer: string;
	    planner: string;
	    model?: string;
	    llm_fallback?: RunError;
	    cluster_fallback?: RunError;
	    clustering?: ScopeClustering[];
	    token_usage?: {[key: string]: Usage};
	    quota_level: string;
	    quota_headroom: number;
	    scopes: ScopeScan[];
	    counts: Counts;
	    rejection_buckets: {[key: string]: number};
	    clusters: ClusterReport[];
	    decisions: Decision[];
	    snapshots: string[];
	    error?: RunError;
	    undo?: UndoRecord;
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.run_id = source["run_id"];
	        this.trigger = source["trigger"];
	        this.mode = source["mode"];
	        this.scope_filter = this.convertValues(source["scope_filter"], ScopeInstance);
	        this.clusterer = source["clusterer"];
	        this.planner = source["planner"];
	        this.model = source["model"];
	        this.llm_fallback = this.convertValues(source["llm_fallback"], RunError);
	        this.cluster_fallback = this.convertValues(source["cluster_fallback"], RunError);
	        this.clustering = this.convertValues(source["clustering"], ScopeClustering);
	        this.token_usage = this.convertValues(source["token_usage"], Usage, true);
	        this.quota_level = source["quota_level"];
	        this.quota_headroom = source["quota_headroom"];
	        this.scopes = this.convertValues(source["scopes"], ScopeScan);
	        this.counts = this.convertValues(source["counts"], Counts);
	        this.rejection_buckets = source["rejection_buckets"];
	        this.clusters = this.convertValues(source["clusters"], ClusterReport);
	        this.decisions = this.convertValues(source["decisions"], Decision);
	        this.snapshots = source["snapshots"];
	        this.error = this.convertValues(source["error"], RunError);
	        this.undo = this.convertValues(source["undo"], UndoRecord);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunDetail {
	    id: string;
	    trigger: string;
	    mode: string;
	    status: string;
	    phase: string;
	    // Go type: time
	    started_at: any;
	    // Go type: time
	    finished_at?: any;
	    initial_count: number;
	    final_count: number;
	    compression_ratio: number;
	    quota_headroom_at_start: number;
	    token_usage_total: number;
	    counts: Counts;
	    rejection_buckets: {[key: string]: number};
	    error?: RunError;
	    progress?: Progress;
	    scope_filter?: ScopeInstance;
	    report?: Report;
	    report_error?: RunError;
	
	    static createFrom(source: any = {}) {
	        return new RunDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.trigger = source["trigger"];
	        this.mode = source["mode"];
	        this.status = source["status"];
	        this.phase = source["phase"];
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.initial_count = source["initial_count"];
	        this.final_count = source["final_count"];
	        this.compression_ratio = source["compression_ratio"];
	        this.quota_headroom_at_start = source["quota_headroom_at_start"];
	        this.token_usage_total = source["token_usage_total"];
	        this.counts = this.convertValues(source["counts"], Counts);
	        this.rejection_buckets = source["rejection_buckets"];
	        this.error = this.convertValues(source["error"], RunError);
	        this.progress = this.convertValues(source["progress"], Progress);
	        this.scope_filter = this.convertValues(source["scope_filter"], ScopeInstance);
	        this.report = this.convertValues(source["report"], Report);
	        this.report_error = this.convertValues(source["report_error"], RunError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RunNowParams {
	    trigger?: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    key?: string;
	
	    static createFrom(source: any = {}) {
	        return new RunNowParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.trigger = source["trigger"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.key = source["key"];
	    }
	}
	export class RunParams {
	    id: string;
	
	    static createFrom(source: any = {}) {
	        return new RunParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	    }
	}
	export class RunRef {
	    id: string;
	    status: string;
	
	    static createFrom(source: any = {}) {
	        return new RunRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.status = source["status"];
	    }
	}
	export class RunSummary {
	    id: string;
	    trigger: string;
	    mode: string;
	    status: string;
	    phase: string;
	    // Go type: time
	    started_at: any;
	    // Go type: time
	    finished_at?: any;
	    initial_count: number;
	    final_count: number;
	    compression_ratio: number;
	    quota_headroom_at_start: number;
	    token_usage_total: number;
	    counts: Counts;
	    rejection_buckets: {[key: string]: number};
	    error?: RunError;
	    progress?: Progress;
	    scope_filter?: ScopeInstance;
	
	    static createFrom(source: any = {}) {
	        return new RunSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.trigger = source["trigger"];
	        this.mode = source["mode"];
	        this.status = source["status"];
	        this.phase = source["phase"];
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.initial_count = source["initial_count"];
	        this.final_count = source["final_count"];
	        this.compression_ratio = source["compression_ratio"];
	        this.quota_headroom_at_start = source["quota_headroom_at_start"];
	        this.token_usage_total = source["token_usage_total"];
	        this.counts = this.convertValues(source["counts"], Counts);
	        this.rejection_buckets = source["rejection_buckets"];
	        this.error = this.convertValues(source["error"], RunError);
	        this.progress = this.convertValues(source["progress"], Progress);
	        this.scope_filter = this.convertValues(source["scope_filter"], ScopeInstance);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RunsParams {
	    limit?: number;
	    offset?: number;
	
	    static createFrom(source: any = {}) {
	        return new RunsParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.limit = source["limit"];
	        this.offset = source["offset"];
	    }
	}
	export class RunsResult {
	    runs: RunSummary[];
	
	    static createFrom(source: any = {}) {
	        return new RunsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runs = this.convertValues(source["runs"], RunSummary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class Settings {
	    enabled: boolean;
	    frequency_hours: number;
	    mode: string;
	    min_hours_between_runs: number;
	    min_new_memories: number;
	    review_after_days: number;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.frequency_hours = source["frequency_hours"];
	        this.mode = source["mode"];
	        this.min_hours_between_runs = source["min_hours_between_runs"];
	        this.min_new_memories = source["min_new_memories"];
	        this.review_after_days = source["review_after_days"];
	    }
	}
	export class SettingsPatch {
	    enabled?: boolean;
	    frequency_hours?: number;
	    mode?: string;
	    min_hours_between_runs?: number;
	    min_new_memories?: number;
	    review_after_days?: number;
	
	    static createFrom(source: any = {}) {
	        return new SettingsPatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.enabled = source["enabled"];
	        this.frequency_hours = source["frequency_hours"];
	        this.mode = source["mode"];
	        this.min_hours_between_runs = source["min_hours_between_runs"];
	        this.min_new_memories = source["min_new_memories"];
	        this.review_after_days = source["review_after_days"];
	    }
	}
	export class StatusResult {
	    settings: Settings;
	    armed: boolean;
	    // Go type: time
	    timer_at?: any;
	    // Go type: time
	    next_run_at?: any;
	    // Go type: time
	    last_check_at?: any;
	    last_skip?: string;
	    active?: RunSummary;
	    queued: number;
	    last_run?: RunSummary;
	
	    static createFrom(source: any = {}) {
	        return new StatusResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], Settings);
	        this.armed = source["armed"];
	        this.timer_at = this.convertValues(source["timer_at"], null);
	        this.next_run_at = this.convertValues(source["next_run_at"], null);
	        this.last_check_at = this.convertValues(source["last_check_at"], null);
	        this.last_skip = source["last_skip"];
	        this.active = this.convertValues(source["active"], RunSummary);
	        this.queued = source["queued"];
	        this.last_run = this.convertValues(source["last_run"], RunSummary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoItem {
	    decision: string;
	    action: string;
	    status: string;
	    restore: EntryRef[];
	    revert: EntryRef[];
	    already_back: EntryRef[];
	    problems: DecisionResult[];
	
	    static createFrom(source: any = {}) {
	        return new UndoItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.decision = source["decision"];
	        this.action = source["action"];
	        this.status = source["status"];
	        this.restore = this.convertValues(source["restore"], EntryRef);
	        this.revert = this.convertValues(source["revert"], EntryRef);
	        this.already_back = this.convertValues(source["already_back"], EntryRef);
	        this.problems = this.convertValues(source["problems"], DecisionResult);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UndoParams {
	    run_id: string;
	    dry_run: boolean;
	
	    static createFrom(source: any = {}) {
	        return new UndoParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	        this.dry_run = source["dry_run"];
	    }
	}
	
	export class UndoResult {
	    run_id: string;
	    dry_run: boolean;
	    items: UndoItem[];
	    undone: number;
	    conflicts: number;
	    restored: number;
	    reverted: number;
	
	    static createFrom(source: any = {}) {
	        return new UndoResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run_id = source["run_id"];
	        this.dry_run = source["dry_run"];
	        this.items = this.convertValues(source["items"], UndoItem);
	        this.undone = source["undone"];
	        this.conflicts = source["conflicts"];
	        this.restored = source["restored"];
	        this.reverted = source["reverted"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace recall {
	
	export class TimeRange {
	    // Go type: time
	    from?: any;
	    // Go type: time
	    to?: any;
	    month?: number;
	    expr: string;
	    relative: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TimeRange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = this.convertValues(source["from"], null);
	        this.to = this.convertValues(source["to"], null);
	        this.month = source["month"];
	        this.expr = source["expr"];
	        this.relative = source["relative"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Keyword {
	    text: string;
	    stem: string;
	    cjk?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Keyword(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.stem = source["stem"];
	        this.cjk = source["cjk"];
	    }
	}
	export class Analysis {
	    query: string;
	    intent: string;
	    identity?: boolean;
	    facets?: string[];
	    time_question?: boolean;
	    keywords: Keyword[];
	    variants?: string[];
	    expansions?: string[];
	    time?: TimeRange;
	    singles?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Analysis(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.intent = source["intent"];
	        this.identity = source["identity"];
	        this.facets = source["facets"];
	        this.time_question = source["time_question"];
	        this.keywords = this.convertValues(source["keywords"], Keyword);
	        this.variants = source["variants"];
	        this.expansions = source["expansions"];
	        this.time = this.convertValues(source["time"], TimeRange);
	        this.singles = source["singles"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Candidate {
	    id: string;
	    slug: string;
	    title: string;
	    scope: string;
	    type: string;
	    workdir?: string;
	
	    static createFrom(source: any = {}) {
	        return new Candidate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.scope = source["scope"];
	        this.type = source["type"];
	        this.workdir = source["workdir"];
	    }
	}
	export class ContextEntry {
	    id: string;
	    slug: string;
	    title: string;
	    truncated?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ContextEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.slug = source["slug"];
	        this.title = source["title"];
	        this.truncated = source["truncated"];
	    }
	}
	export class ContextParams {
	    query: string;
	    max_tokens?: number;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    limit?: number;
	
	    static createFrom(source: any = {}) {
	        return new ContextParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.max_tokens = source["max_tokens"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.limit = source["limit"];
	    }
	}
	export class Warning {
	    code: string;
	    args?: {[key: string]: any};
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.args = source["args"];
	    }
	}
	export class ContextResult {
	    text: string;
	    tokens: number;
	    entries: ContextEntry[];
	    omitted: number;
	    warnings?: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new ContextResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.tokens = source["tokens"];
	        this.entries = this.convertValues(source["entries"], ContextEntry);
	        this.omitted = source["omitted"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class GrepLine {
	    line: number;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new GrepLine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.text = source["text"];
	    }
	}
	export class GrepHit {
	    memory?: memory.Memory;
	    lines: GrepLine[];
	    count: number;
	
	    static createFrom(source: any = {}) {
	        return new GrepHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memory = this.convertValues(source["memory"], memory.Memory);
	        this.lines = this.convertValues(source["lines"], GrepLine);
	        this.count = source["count"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class GrepParams {
	    pattern: string;
	    ignore_case?: boolean;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    limit?: number;
	    max_lines?: number;
	
	    static createFrom(source: any = {}) {
	        return new GrepParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pattern = source["pattern"];
	        this.ignore_case = source["ignore_case"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.limit = source["limit"];
	        this.max_lines = source["max_lines"];
	    }
	}
	export class GrepResult {
	    hits: GrepHit[];
	    scanned: number;
	    truncated?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new GrepResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hits = this.convertValues(source["hits"], GrepHit);
	        this.scanned = source["scanned"];
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Hit {
	    memory?: memory.Memory;
	    score: number;
	    snippet: string;
	    via: string[];
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.memory = this.convertValues(source["memory"], memory.Memory);
	        this.score = source["score"];
	        this.snippet = source["snippet"];
	        this.via = source["via"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class OverviewParams {
	    session?: string;
	    workdir?: string;
	    agent?: string;
	    reset?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new OverviewParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = source["session"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.reset = source["reset"];
	    }
	}
	export class OverviewResult {
	    index: string;
	    update?: string;
	    entries: number;
	    total: number;
	    truncated?: boolean;
	    // Go type: time
	    frozen_at: any;
	
	    static createFrom(source: any = {}) {
	        return new OverviewResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.update = source["update"];
	        this.entries = source["entries"];
	        this.total = source["total"];
	        this.truncated = source["truncated"];
	        this.frozen_at = this.convertValues(source["frozen_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchParams {
	    query: string;
	    scope?: string;
	    workdir?: string;
	    agent?: string;
	    type?: string;
	    limit?: number;
	    no_touch?: boolean;
	    best_effort?: boolean;
	    no_daily?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SearchParams(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.scope = source["scope"];
	        this.workdir = source["workdir"];
	        this.agent = source["agent"];
	        this.type = source["type"];
	        this.limit = source["limit"];
	        this.no_touch = source["no_touch"];
	        this.best_effort = source["best_effort"];
	        this.no_daily = source["no_daily"];
	    }
	}
	export class SearchResult {
	    hits: Hit[];
	    analysis: Analysis;
	    time_relaxed?: boolean;
	    chars_relaxed?: boolean;
	    fallback?: boolean;
	    warnings?: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new SearchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hits = this.convertValues(source["hits"], Hit);
	        this.analysis = this.convertValues(source["analysis"], Analysis);
	        this.time_relaxed = source["time_relaxed"];
	        this.chars_relaxed = source["chars_relaxed"];
	        this.fallback = source["fallback"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolDef {
	    name: string;
	    description: string;
	    input_schema: number[];
	    read_only: boolean;
	    destructive: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolDef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.input_schema = source["input_schema"];
	        this.read_only = source["read_only"];
	        this.destructive = source["destructive"];
	    }
	}
	export class ToolError {
	    code: string;
	    message: string;
	    args?: {[key: string]: any};
	    suggested_next_call?: {[key: string]: any};
	    candidates?: Candidate[];
	
	    static createFrom(source: any = {}) {
	        return new ToolError(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.message = source["message"];
	        this.args = source["args"];
	        this.suggested_next_call = source["suggested_next_call"];
	        this.candidates = this.convertValues(source["candidates"], Candidate);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolResult {
	    ok: boolean;
	    action: string;
	    result?: any;
	    error?: ToolError;
	
	    static createFrom(source: any = {}) {
	        return new ToolResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.action = source["action"];
	        this.result = source["result"];
	        this.error = this.convertValues(source["error"], ToolError);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace settings {
	
	export class Embeddings {
	    provider: string;
	    base_url: string;
	    model: string;
	    vector_backend: string;
	    vector_url: string;
	
	    static createFrom(source: any = {}) {
	        return new Embeddings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.vector_backend = source["vector_backend"];
	        this.vector_url = source["vector_url"];
	    }
	}
	export class EmbeddingsPatch {
	    provider?: string;
	    base_url?: string;
	    model?: string;
	    vector_backend?: string;
	    vector_url?: string;
	
	    static createFrom(source: any = {}) {
	        return new EmbeddingsPatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.vector_backend = source["vector_backend"];
	        this.vector_url = source["vector_url"];
	    }
	}
	export class LLM {
	    provider: string;
	    base_url: string;
	    model: string;
	    streaming: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LLM(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.streaming = source["streaming"];
	    }
	}
	export class LLMPatch {
	    provider?: string;
	    base_url?: string;
	    model?: string;
	    streaming?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LLMPatch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.streaming = source["streaming"];
	    }
	}
	export class Patch {
	    language?: string;
	    theme?: string;
	    remote_enabled?: boolean;
	    remote_addr?: string;
	    llm?: LLMPatch;
	    embeddings?: EmbeddingsPatch;
	    sync_minutes?: number;
	
	    static createFrom(source: any = {}) {
	        return new Patch(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.language = source["language"];
	        this.theme = source["theme"];
	        this.remote_enabled = source["remote_enabled"];
	        this.remote_addr = source["remote_addr"];
	        this.llm = this.convertValues(source["llm"], LLMPatch);
	        this.embeddings = this.convertValues(source["embeddings"], EmbeddingsPatch);
	        this.sync_minutes = source["sync_minutes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Settings {
	    version: number;
	    language: string;
	    theme: string;
	    remote_enabled: boolean;
	    remote_addr: string;
	    llm: LLM;
	    embeddings: Embeddings;
	    sync_minutes: number;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.language = source["language"];
	        this.theme = source["theme"];
	        this.remote_enabled = source["remote_enabled"];
	        this.remote_addr = source["remote_addr"];
	        this.llm = this.convertValues(source["llm"], LLM);
	        this.embeddings = this.convertValues(source["embeddings"], Embeddings);
	        this.sync_minutes = source["sync_minutes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace vector {
	
	export class Progress {
	    model: string;
	    done: number;
	    total: number;
	    running: boolean;
	    error?: string;
	    // Go type: time
	    at: any;
	
	    static createFrom(source: any = {}) {
	        return new Progress(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.model = source["model"];
	        this.done = source["done"];
	        this.total = source["total"];
	        this.running = source["running"];
	        this.error = source["error"];
	        this.at = this.convertValues(source["at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

