// The boardgame.io server of bench/versus_boardgameio.py: the example game
// (game.js) with bgio-postgres on the database named by DATABASE_URL, its
// lobby and socket.io on PORT. Prints "listening" once it serves.
"use strict";
const { Server } = require("boardgame.io/server");
const { PostgresStore } = require("bgio-postgres");
const { Example } = require("./game");

const db = new PostgresStore(process.env.DATABASE_URL, { logging: false });
const server = Server({ games: [Example], db });
server.run(Number(process.env.PORT), () => console.log("listening"));
