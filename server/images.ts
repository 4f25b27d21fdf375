// build/ imports this path (the dev server's middlewares) and is not this branch's to edit: the lead points
// build/ at server/routes/images.ts when the branches merge, and this file goes.
export * from './routes/images.ts';
