/** Testing Library's DOM matchers, a clean DOM after each test, and what jsdom lacks (vitest runs without globals). */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// One process runs the UI files one after another (vitest.workspace.ts): each file gets the UI's modules afresh, so its
// own module mocks (the fake API) apply and none of the previous file's do.
vi.resetModules();

// The screens are lazy chunks: the first import of one in a file takes longer than Testing Library's 1 s.
configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom lays nothing out: the form's "focus the first invalid field" scrolls nowhere.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

// jsdom has <dialog> without its modal methods: open and close are enough for what the tests read.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) { this.open = true; };
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) { this.open = false; };
