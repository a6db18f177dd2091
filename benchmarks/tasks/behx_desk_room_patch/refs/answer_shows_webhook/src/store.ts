// The in-memory store, saved to and loaded from one JSON file. Every read returns a copy, so a
// caller cannot change the store behind its back: changes go through the methods.

import { readFile, rename, writeFile } from "node:fs/promises";
import { fromDate } from "./time.js";
import type { Booking, BookingInput, PrefObject, Role, Room, User } from "./types.js";

interface Data {
  users: User[];
  rooms: Room[];
  bookings: Booking[];
  tokens: Record<string, number>;
  nextId: number;
}

export interface StoreOptions {
  /** The clock bookings are stamped with (tests pass a fixed one). */
  clock?: () => Date;
}

const copy = <T>(value: T): T => structuredClone(value);

export class Store {
  private data: Data = { users: [], rooms: [], bookings: [], tokens: {}, nextId: 1 };
  private readonly clock: () => Date;

  constructor(options: StoreOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
  }

  now(): string {
    return fromDate(this.clock());
  }

  private id(): number {
    return this.data.nextId++;
  }

  // -- users

  addUser(fields: { login: string; name?: string; role?: Role; token?: string }): User {
    const user: User = {
      id: this.id(),
      login: fields.login,
      name: fields.name ?? fields.login,
      role: fields.role ?? "member",
      preferences: {},
    };
    this.data.users.push(user);
    if (fields.token) this.data.tokens[fields.token] = user.id;
    return copy(user);
  }

  getUser(id: number): User | undefined {
    const user = this.data.users.find((u) => u.id === id);
    return user && copy(user);
  }

  userForToken(token: string): User | undefined {
    const id = Object.prototype.hasOwnProperty.call(this.data.tokens, token) ? this.data.tokens[token] : undefined;
    return id === undefined ? undefined : this.getUser(id);
  }

  setPreferences(userId: number, preferences: PrefObject): User {
    const user = this.data.users.find((u) => u.id === userId);
    if (!user) throw new Error(`no user ${userId}`);
    user.preferences = copy(preferences);
    return copy(user);
  }

  // -- rooms

  addRoom(fields: Omit<Room, "id" | "webhook"> & { webhook?: string | null }): Room {
    const room: Room = { id: this.id(), ...fields, webhook: fields.webhook ?? null };
    this.data.rooms.push(room);
    return copy(room);
  }

  getRoom(id: number): Room | undefined {
    const room = this.data.rooms.find((r) => r.id === id);
    return room && copy(room);
  }

  listRooms(): Room[] {
    return copy(this.data.rooms);
  }

  /** Changes some of a room's fields (never its id or webhook). */
  updateRoom(roomId: number, changes: Partial<Pick<Room, "name" | "capacity" | "opens" | "closes">>): Room {
    const room = this.data.rooms.find((r) => r.id === roomId);
    if (!room) throw new Error(`no room ${roomId}`);
    Object.assign(room, changes);
    return copy(room);
  }

  setWebhook(roomId: number, url: string | null): Room {
    const room = this.data.rooms.find((r) => r.id === roomId);
    if (!room) throw new Error(`no room ${roomId}`);
    room.webhook = url;
    return copy(room);
  }

  // -- bookings

  addBooking(userId: number, input: BookingInput): Booking {
    const booking: Booking = {
      id: this.id(),
      roomId: input.roomId,
      userId,
      title: input.title,
      start: input.start,
      end: input.end,
      status: "active",
      createdAt: this.now(),
    };
    this.data.bookings.push(booking);
    return copy(booking);
  }

  getBooking(id: number): Booking | undefined {
    const booking = this.data.bookings.find((b) => b.id === id);
    return booking && copy(booking);
  }

  /** Bookings in start order, optionally of one room or one user. */
  listBookings(filter: { roomId?: number; userId?: number } = {}): Booking[] {
    return copy(
      this.data.bookings
        .filter((b) => filter.roomId === undefined || b.roomId === filter.roomId)
        .filter((b) => filter.userId === undefined || b.userId === filter.userId)
        .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id)),
    );
  }

  updateBooking(id: number, changes: Partial<Omit<Booking, "id">>): Booking {
    const booking = this.data.bookings.find((b) => b.id === id);
    if (!booking) throw new Error(`no booking ${id}`);
    Object.assign(booking, changes);
    return copy(booking);
  }

  // -- persistence

  async save(path: string): Promise<void> {
    await writeFile(`${path}.tmp`, JSON.stringify(this.data, null, 2), "utf8");
    await rename(`${path}.tmp`, path);
  }

  static async load(path: string, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(options);
    store.data = JSON.parse(await readFile(path, "utf8")) as Data;
    return store;
  }
}
